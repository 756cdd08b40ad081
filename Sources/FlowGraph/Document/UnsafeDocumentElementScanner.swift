import Foundation

/// Reads the common shapes of `nodes` and `edges` elements straight from the document's bytes,
/// without building a `JSONValue` tree: member keys are compared as bytes, ids become strings
/// made from the bytes, numbers go through the parser's own number reader.
///
/// A scan accepts only an element that the generic path (`JSONParser` building the value, then
/// `DocumentReader.node`/`.edge`) would read without any problem, and then returns exactly the
/// value that path builds. It declines — returns `nil` with `index` back at the element's first
/// byte — on anything else, so the generic path reads that element (and reports its problems)
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
///   `skipPlainBytes` and `parseNumber` check their own reads; literals check `index + length`);
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

  // The values are moved out of their optionals (`take()`) into the appended element: no copy.

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

  // MARK: - Pieces

  /// A flat object: strings, numbers, `true`, `false`, `null` as member values.
  private mutating func scanFlatObject() -> JSONObject? {
    guard base[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    skipWhitespace()
    guard index < count else { return nil }
    if base[index] == UInt8(ascii: "}") {
      index += 1
      return JSONObject()
    }
    guard base[index] == UInt8(ascii: "\"") else { return nil }
    var members: [JSONMember] = []
    repeat {
      guard let key = scanKey() else { return nil }
      let name = key.length < 16 ? shortString(at: key.start, length: key.length) : makeString(at: key.start, length: key.length)
      let value: JSONValue
      switch base[index] {
      case UInt8(ascii: "\""):
        guard let text = scanString(repeated: true) else { return nil }
        value = .string(text)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard let number = try? parseNumber() else { return nil }
        value = .number(number)
      case UInt8(ascii: "t"):
        guard scanLiteral("true") else { return nil }
        value = .bool(true)
      case UInt8(ascii: "f"):
        guard scanLiteral("false") else { return nil }
        value = .bool(false)
      case UInt8(ascii: "n"):
        guard scanLiteral("null") else { return nil }
        value = .null
      default:
        return nil
      }
      members.append(JSONMember(key: name, value: value))
      guard let more = endMember() else { return nil }
      if !more { break }
    } while true
    return JSONObject(members)
  }

  /// `{` and the first key's opening quote: an empty object is declined.
  private mutating func openObject() -> Bool {
    guard index < count, base[index] == UInt8(ascii: "{") else { return false }
    index += 1
    skipWhitespace()
    return index < count && base[index] == UInt8(ascii: "\"")
  }

  /// A key, its `:` and the whitespace after it; `index` is then at the value, inside the buffer.
  private mutating func scanKey() -> (start: Int, length: Int)? {
    guard let key = scanPlainString() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: ":") else { return nil }
    index += 1
    skipWhitespace()
    return index < count ? key : nil
  }

  /// After a member's value: `true` past a `,` (at the next key's quote), `false` past the `}`.
  private mutating func endMember() -> Bool? {
    skipWhitespace()
    guard index < count else { return nil }
    switch base[index] {
    case UInt8(ascii: ","):
      index += 1
      skipWhitespace()
      return index < count && base[index] == UInt8(ascii: "\"") ? true : nil
    case UInt8(ascii: "}"):
      index += 1
      return false
    default:
      return nil
    }
  }

  /// The bytes between the quotes of a string of printable ASCII without escapes; `index` is
  /// then past the closing quote.
  private mutating func scanPlainString() -> (start: Int, length: Int)? {
    guard base[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    let start = index
    while true {
      skipPlainBytes()
      guard index < count else { return nil }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1 - start)
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
  }

  /// A plain string value; `repeated` ones (kinds, handle ids) go through the short-string cache
  /// as the generic parser's do, unique ones (ids) are made directly.
  private mutating func scanString(repeated: Bool) -> String? {
    guard let span = scanPlainString() else { return nil }
    if repeated && span.length < 16 { return shortString(at: span.start, length: span.length) }
    return makeString(at: span.start, length: span.length)
  }

  /// A plain string, or `null` (then `.some(nil)`).
  private mutating func scanOptionalString() -> String?? {
    if base[index] == UInt8(ascii: "n") { return scanLiteral("null") ? .some(nil) : nil }
    guard let text = scanString(repeated: true) else { return nil }
    return .some(text)
  }

  /// `[number, number]`.
  private mutating func scanPair() -> (Double, Double)? {
    guard base[index] == UInt8(ascii: "[") else { return nil }
    index += 1
    guard let x = scanNumber() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: ",") else { return nil }
    index += 1
    guard let y = scanNumber() else { return nil }
    skipWhitespace()
    guard index < count, base[index] == UInt8(ascii: "]") else { return nil }
    index += 1
    return (x, y)
  }

  /// A number after optional whitespace.
  private mutating func scanNumber() -> Double? {
    skipWhitespace()
    guard index < count else { return nil }
    let byte = base[index]
    guard byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { return nil }
    return try? parseNumber()
  }

  /// `literal` at `index`.
  private mutating func scanLiteral(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard index <= count &- length else { return false }
    for offset in 0..<length where base[index + offset] != literal.utf8Start[offset] { return false }
    index += length
    return true
  }

  /// Whether the key at `index` (at its opening quote) is `literal`, written plainly, with its
  /// `:` after it; if so, moves past them and the whitespace after (to the value, inside the
  /// buffer), otherwise leaves `index` where it was.
  ///
  /// The literals are printable ASCII without `"` or `\`, so a match is the whole key, and at
  /// most one of the distinct literals tried at one place matches.
  @inline(__always)
  private mutating func key(_ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    // The quote at `index`, the literal, the closing quote, then at least one byte.
    guard index < count &- length &- 2 else { return false }
    let name = base + index + 1
    for offset in 0..<length where name[offset] != literal.utf8Start[offset] { return false }
    guard name[length] == UInt8(ascii: "\"") else { return false }
    let start = index
    index += length + 2
    if base[index] != UInt8(ascii: ":") {
      skipWhitespace()
      guard index < count, base[index] == UInt8(ascii: ":") else {
        index = start
        return false
      }
    }
    index += 1
    skipWhitespace()
    guard index < count else {
      index = start
      return false
    }
    return true
  }
}
