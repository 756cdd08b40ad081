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
  /// The node element at `index`, if it has a shape this scanner reads (see above).
  mutating func scanNode() -> FlowNode? {
    let start = index
    if let node = scanNodeObject() { return node }
    index = start
    return nil
  }

  /// The edge element at `index`, if it has a shape this scanner reads (see above).
  mutating func scanEdge() -> FlowEdge? {
    let start = index
    if let edge = scanEdgeObject() { return edge }
    index = start
    return nil
  }

  private mutating func scanNodeObject() -> FlowNode? {
    guard openObject() else { return nil }
    var id: String?, position: CGPoint?, size: CGSize?, spec: NodeSpec?
    repeat {
      guard let key = scanKey() else { return nil }
      if bytes(key, equal: "id") {
        guard id == nil, let value = scanString(repeated: false) else { return nil }
        id = value
      } else if bytes(key, equal: "position") {
        guard position == nil, let pair = scanPair() else { return nil }
        position = CGPoint(x: pair.0, y: pair.1)
      } else if bytes(key, equal: "data") {
        guard spec == nil, let value = scanSpec() else { return nil }
        spec = value
      } else if bytes(key, equal: "size") {
        guard size == nil, let pair = scanPair() else { return nil }
        size = CGSize(width: pair.0, height: pair.1)
      } else {
        return nil
      }
      guard let more = endMember() else { return nil }
      if !more { break }
    } while true
    guard let id, let spec else { return nil }
    return FlowNode(id: id, data: spec, position: position ?? .zero, size: size ?? FlowNode.defaultSize)
  }

  /// `data`: `{"kind": …, "params": {…}, "label": …}`.
  private mutating func scanSpec() -> NodeSpec? {
    guard openObject() else { return nil }
    var kind: String?, params: JSONObject?, label: String?
    var seenParams = false, seenLabel = false
    repeat {
      guard let key = scanKey() else { return nil }
      if bytes(key, equal: "kind") {
        guard kind == nil, let value = scanString(repeated: true) else { return nil }
        kind = value
      } else if bytes(key, equal: "params") {
        guard !seenParams else { return nil }
        seenParams = true
        if base[index] == UInt8(ascii: "n") {
          guard scanLiteral("null") else { return nil }
        } else {
          guard let object = scanFlatObject() else { return nil }
          params = object
        }
      } else if bytes(key, equal: "label") {
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

  private mutating func scanEdgeObject() -> FlowEdge? {
    guard openObject() else { return nil }
    var id: String?, source: String?, target: String?, sourceHandle: String?, targetHandle: String?
    var seenHandles = (source: false, target: false)
    repeat {
      guard let key = scanKey() else { return nil }
      if bytes(key, equal: "id") {
        guard id == nil, let value = scanString(repeated: false) else { return nil }
        id = value
      } else if bytes(key, equal: "sourceNodeID") {
        guard source == nil, let value = scanString(repeated: false) else { return nil }
        source = value
      } else if bytes(key, equal: "targetNodeID") {
        guard target == nil, let value = scanString(repeated: false) else { return nil }
        target = value
      } else if bytes(key, equal: "targetHandleID") {
        guard !seenHandles.target, let value = scanOptionalString() else { return nil }
        seenHandles.target = true
        targetHandle = value
      } else if bytes(key, equal: "sourceHandleID") {
        guard !seenHandles.source, let value = scanOptionalString() else { return nil }
        seenHandles.source = true
        sourceHandle = value
      } else {
        return nil
      }
      guard let more = endMember() else { return nil }
      if !more { break }
    } while true
    guard let id, let source, let target else { return nil }
    return FlowEdge(id: id, sourceNodeID: source, sourceHandleID: sourceHandle, targetNodeID: target,
                    targetHandleID: targetHandle)
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

  /// Whether the scanned key `key` is `literal`.
  @inline(__always)
  private func bytes(_ key: (start: Int, length: Int), equal literal: StaticString) -> Bool {
    guard key.length == literal.utf8CodeUnitCount else { return false }
    for offset in 0..<key.length where base[key.start + offset] != literal.utf8Start[offset] { return false }
    return true
  }
}
