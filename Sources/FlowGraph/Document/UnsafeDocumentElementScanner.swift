import Foundation

/// Reads the common shapes of `nodes` and `edges` elements straight from the document's bytes,
/// without building a `JSONValue` tree: member keys are compared as bytes, ids become strings
/// made from the bytes (`UnsafeSmallASCIIString` for short ones), numbers go through the
/// parser's own number reader. `DocumentStreamDecoder` offers it every streamed element.
///
/// A scan accepts only an element that the generic path (`JSONParser` building the value, then
/// `DocumentReader.node`/`.edge`) would read without any problem, and then returns exactly the
/// value that path builds. It declines — returns `false` with `index` back at the element's
/// first byte — on anything else, so the generic path reads that element (and reports its problems)
/// as before. Declined: escapes, non-ASCII bytes and control characters in strings; keys other
/// than those listed; a key given twice; a value of another type; nested values in `params`;
/// empty objects; any syntax error.
///
/// Accepted nodes: `{"id": string, "data": {"kind": string, "params": flat object | null,
/// "label": string | null}, "position": [number, number], "size": [number, number],
/// "isSelected", "isDraggable", "acceptsChildren": bool, "zIndex": whole number (|z| ≤ 2^53),
/// "persistence": "persistent" | "transient", "phase": {"normal": {}}, "parentID": string |
/// null}` (members in any order, whitespace anywhere JSON allows it, all but `id` and `data`
/// optional; not `handles`, nor a draft phase). Accepted edges: `{"id", "sourceNodeID",
/// "targetNodeID": string, "sourceHandleID", "targetHandleID", "label", "parentID": string |
/// null, "pathType": one of its four names, "isSelected": bool}`. So both the compact documents
/// of hand-written or generated graphs and those `jsonString()` writes (every key) are read
/// directly. A flat object holds strings, numbers, `true`, `false` and `null` only.
///
/// Why unsafe, and why it is sound: these are `JSONParser` methods reading its `base` pointer,
/// under the parser's invariants (see `UnsafeJSONParser.swift`). In addition:
/// - every read of `base[i]` is preceded by a check `i < count` (`skipWhitespace`,
///   `skipPlainBytes` and `parseNumber` check their own reads; literals and keys check
///   `index + length`; see `UnsafeDocumentElementScanner+Pieces.swift` for the pieces);
/// - strings are made from ranges already scanned, inside the buffer;
/// - `scanNode`/`scanEdge` either move `index` just past the element's closing `}` or restore it.
extension JSONParser {
  /// Appends the node element at `index` to `nodes`, if it has a shape this scanner reads (see
  /// above).
  ///
  /// - Returns: whether it did (otherwise `index` is unchanged).
  mutating func scanNode(into nodes: inout [FlowNode]) -> Bool {
    let start = index
    if scanNodeObject(into: &nodes) { return true }
    index = start
    return false
  }

  /// Appends the edge element at `index` to `edges`, if it has a shape this scanner reads.
  ///
  /// - Returns: whether it did (otherwise `index` is unchanged).
  mutating func scanEdge(into edges: inout [FlowEdge]) -> Bool {
    let start = index
    if scanEdgeObject(into: &edges) { return true }
    index = start
    return false
  }

  // The values are moved out of their optionals (`take()`) into the new element. A member read
  // twice is declined (`seen`); the rarely set fields (written by `jsonString()` on every
  // element, mostly at their defaults) go through the public initializer, which boxes them only
  // when one differs from its default — as the generic path's setters do.

  private mutating func scanNodeObject(into nodes: inout [FlowNode]) -> Bool {
    guard openObject() else { return false }
    var id: String?, spec: NodeSpec?, position = CGPoint.zero, size = FlowNode.defaultSize
    var details = NodeDetails()
    var seen: UInt16 = 0
    repeat {
      let member: UInt16
      if key("id") {
        member = 1
        guard let value = scanString(repeated: false) else { return false }
        id = value
      } else if key("position") {
        member = 2
        guard let pair = scanPair() else { return false }
        position = CGPoint(x: pair.0, y: pair.1)
      } else if key("data") {
        member = 4
        guard let value = scanSpec() else { return false }
        spec = value
      } else if key("size") {
        member = 8
        guard let pair = scanPair() else { return false }
        size = CGSize(width: pair.0, height: pair.1)
      } else if key("isSelected") {
        member = 16
        guard let flag = scanBool() else { return false }
        details.isSelected = flag
      } else if key("isDraggable") {
        member = 32
        guard let flag = scanBool() else { return false }
        details.isDraggable = flag
      } else if key("acceptsChildren") {
        member = 64
        guard let flag = scanBool() else { return false }
        details.acceptsChildren = flag
      } else if key("zIndex") {
        member = 128
        // Whole numbers a double holds exactly (|z| ≤ 2^53), as `DocumentReader.node` takes.
        guard let number = scanNumberValue()?.integerValue, number.magnitude <= 1 << 53 else { return false }
        details.zIndex = Int(number)
      } else if key("persistence") {
        member = 256
        guard let text = scanString(repeated: true), let value = FlowNode.Persistence(rawValue: text) else {
          return false
        }
        details.persistence = value
      } else if key("phase") {
        member = 512
        guard scanNormalPhase() else { return false }
      } else if key("parentID") {
        member = 1024
        guard let value = scanOptionalString() else { return false }
        details.parentID = value
      } else {
        return false
      }
      guard seen & member == 0, let more = endMember() else { return false }
      seen |= member
      if !more { break }
    } while true
    guard let id = id.take(), let spec = spec.take() else { return false }
    if seen < 16 {
      nodes.append(FlowNode(defaultDetailsID: id, data: spec, position: position, size: size))
    } else {
      nodes.append(
        FlowNode(
          id: id, data: spec, position: position, size: size, parentID: details.parentID,
          persistence: details.persistence, isSelected: details.isSelected,
          isDraggable: details.isDraggable, acceptsChildren: details.acceptsChildren,
          zIndex: details.zIndex))
    }
    return true
  }

  /// `data`: `{"kind": …, "params": {…}, "label": …}`.
  private mutating func scanSpec() -> NodeSpec? {
    guard openObject() else { return nil }
    var kind: String?, params: JSONObject?, label: String?
    var seenParams = false, seenLabel = false
    repeat {
      if key("kind") {
        guard kind == nil, let value = scanString(repeated: true) else { return nil }
        kind = value
      } else if key("params") {
        guard !seenParams else { return nil }
        seenParams = true
        if base[index] == UInt8(ascii: "n") {
          guard scanLiteral("null") else { return nil }
        } else {
          guard let object = scanFlatObject() else { return nil }
          params = object
        }
      } else if key("label") {
        guard !seenLabel else { return nil }
        seenLabel = true
        if base[index] == UInt8(ascii: "n") {
          guard scanLiteral("null") else { return nil }
        } else {
          guard let value = scanString(repeated: true) else { return nil }
          label = value
        }
      } else {
        return nil
      }
      guard let more = endMember() else { return nil }
      if !more { break }
    } while true
    guard let kind else { return nil }
    var spec = NodeSpec(kind: kind)
    if let params { spec.params = params }
    if let label { spec.label = label }
    return spec
  }

  private mutating func scanEdgeObject(into edges: inout [FlowEdge]) -> Bool {
    guard openObject() else { return false }
    var id: String?, source: String?, target: String?, sourceHandle: String?, targetHandle: String?
    var details = EdgeDetails()
    var seen: UInt16 = 0
    repeat {
      let member: UInt16
      if key("id") {
        member = 1
        guard let value = scanString(repeated: false) else { return false }
        id = value
      } else if key("sourceNodeID") {
        member = 2
        guard let value = scanString(repeated: false) else { return false }
        source = value
      } else if key("targetNodeID") {
        member = 4
        guard let value = scanString(repeated: false) else { return false }
        target = value
      } else if key("targetHandleID") {
        member = 8
        guard let value = scanOptionalString() else { return false }
        targetHandle = value
      } else if key("sourceHandleID") {
        member = 16
        guard let value = scanOptionalString() else { return false }
        sourceHandle = value
      } else if key("pathType") {
        member = 32
        guard let text = scanString(repeated: true), let type = FlowEdge.PathType(rawValue: text) else { return false }
        details.pathType = type
      } else if key("isSelected") {
        member = 64
        guard let flag = scanBool() else { return false }
        details.isSelected = flag
      } else if key("label") {
        member = 128
        guard let value = scanOptionalString() else { return false }
        details.label = value
      } else if key("parentID") {
        member = 256
        guard let value = scanOptionalString() else { return false }
        details.parentID = value
      } else {
        return false
      }
      guard seen & member == 0, let more = endMember() else { return false }
      seen |= member
      if !more { break }
    } while true
    guard let id = id.take(), let source = source.take(), let target = target.take() else { return false }
    if seen < 32 {
      edges.append(
        FlowEdge(
          defaultDetailsID: id, sourceNodeID: source, sourceHandleID: sourceHandle.take(),
          targetNodeID: target, targetHandleID: targetHandle.take()))
    } else {
      edges.append(
        FlowEdge(
          id: id, sourceNodeID: source, sourceHandleID: sourceHandle.take(), targetNodeID: target,
          targetHandleID: targetHandle.take(), parentID: details.parentID, label: details.label,
          pathType: details.pathType, isSelected: details.isSelected))
    }
    return true
  }
}
