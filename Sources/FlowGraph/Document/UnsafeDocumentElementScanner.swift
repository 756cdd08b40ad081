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
/// "label": string | null}, "position": [number, number], "size": [number, number]}` (members in
/// any order, whitespace anywhere JSON allows it, `position`, `size`, `params` and `label`
/// optional). Accepted edges: `{"id", "sourceNodeID", "targetNodeID": string, "sourceHandleID",
/// "targetHandleID": string | null}` (handles optional). A flat object holds strings, numbers,
/// `true`, `false` and `null` only.
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

  // The values are moved out of their optionals (`take()`) into the new element.

  private mutating func scanNodeObject(into nodes: inout [FlowNode]) -> Bool {
    guard openObject() else { return false }
    var id: String?, position: CGPoint?, size: CGSize?, spec: NodeSpec?
    repeat {
      if key("id") {
        guard id == nil, let value = scanString(repeated: false) else { return false }
        id = value
      } else if key("position") {
        guard position == nil, let pair = scanPair() else { return false }
        position = CGPoint(x: pair.0, y: pair.1)
      } else if key("data") {
        guard spec == nil, let value = scanSpec() else { return false }
        spec = value
      } else if key("size") {
        guard size == nil, let pair = scanPair() else { return false }
        size = CGSize(width: pair.0, height: pair.1)
      } else {
        return false
      }
      guard let more = endMember() else { return false }
      if !more { break }
    } while true
    guard let id = id.take(), let spec = spec.take() else { return false }
    nodes.append(FlowNode(defaultDetailsID: id, data: spec, position: position ?? .zero, size: size ?? FlowNode.defaultSize))
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
    var seenHandles = (source: false, target: false)
    repeat {
      if key("id") {
        guard id == nil, let value = scanString(repeated: false) else { return false }
        id = value
      } else if key("sourceNodeID") {
        guard source == nil, let value = scanString(repeated: false) else { return false }
        source = value
      } else if key("targetNodeID") {
        guard target == nil, let value = scanString(repeated: false) else { return false }
        target = value
      } else if key("targetHandleID") {
        guard !seenHandles.target, let value = scanOptionalString() else { return false }
        seenHandles.target = true
        targetHandle = value
      } else if key("sourceHandleID") {
        guard !seenHandles.source, let value = scanOptionalString() else { return false }
        seenHandles.source = true
        sourceHandle = value
      } else {
        return false
      }
      guard let more = endMember() else { return false }
      if !more { break }
    } while true
    guard let id = id.take(), let source = source.take(), let target = target.take() else { return false }
    edges.append(FlowEdge(defaultDetailsID: id, sourceNodeID: source, sourceHandleID: sourceHandle.take(),
                          targetNodeID: target, targetHandleID: targetHandle.take()))
    return true
  }
}
