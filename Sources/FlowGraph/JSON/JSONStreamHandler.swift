/// Receives the elements of the arrays `JSONParser.parse(_:streaming:into:)` streams.
///
/// Each element is first offered to `decodeDirectly(_:_:)`; only when that declines is it parsed
/// into a `JSONValue` and given to `element(_:_:offset:)`. A handler that declines every element
/// sees exactly what the generic parser builds.
protocol JSONStreamHandler {
  /// Reads the element starting at `parser.index` (after whitespace, inside the buffer) straight
  /// from the bytes, or declines.
  ///
  /// - Parameters:
  ///   - key: the position in the streamed keys of the array this element belongs to.
  ///   - parser: the parser, at the element's first byte.
  /// - Returns: `true` when the element was read whole (`parser.index` is then just past it and
  ///   the parser goes on with the separator after it); `false`, with `parser.index` unchanged,
  ///   to have the generic parser read it.
  mutating func decodeDirectly(_ key: Int, _ parser: inout JSONParser) -> Bool

  /// Takes an element the generic parser read.
  ///
  /// - Parameters:
  ///   - key: the position in the streamed keys of the array this element belongs to.
  ///   - value: the element.
  ///   - offset: where the parser is, just after the element: it never reads the bytes before
  ///     this again, except to count lines for an error.
  mutating func element(_ key: Int, _ value: consuming JSONValue, offset: Int)
}

/// The handler of a parse that streams nothing.
struct NoStreamedElements: JSONStreamHandler {
  func decodeDirectly(_ key: Int, _ parser: inout JSONParser) -> Bool { false }
  func element(_ key: Int, _ value: consuming JSONValue, offset: Int) {}
}
