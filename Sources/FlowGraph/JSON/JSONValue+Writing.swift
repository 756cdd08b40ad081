extension JSONValue {
  /// Options for ``JSONValue/serialized(options:)``.
  public struct WritingOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// Two-space indentation, one array element or object member per
    /// line, `"key" : value` (the style of Foundation's `JSONEncoder`).
    public static let prettyPrinted = WritingOptions(rawValue: 1 << 0)
    /// Object members sorted by key (`String` `<`); duplicate keys keep
    /// their relative order.
    public static let sortedKeys = WritingOptions(rawValue: 1 << 1)
    /// A `Double` that is a whole number is written with a fraction (`2.0`, `-0.0`), so that it
    /// reads back as a `Double` and not as an integer: what documents use, where the two differ
    /// (a `number` node holding `2.0` outputs a number, one holding `2` an integer).
    public static let distinguishingDoubles = WritingOptions(rawValue: 1 << 2)
  }

  /// The JSON text of this value.
  ///
  /// Integers are written digit for digit; `Double`s that are whole numbers
  /// below 2^53 in magnitude are written without a fraction; other numbers
  /// use Swift's shortest round-trip form.
  /// Non-finite numbers are written as the strings `"nan"`, `"inf"` and
  /// `"-inf"` so the output is always valid JSON.
  public func serialized(options: WritingOptions = [.prettyPrinted, .sortedKeys]) -> String {
    var writer = JSONWriter(options: options)
    writer.write(self)
    return writer.withOutput { String(decoding: $0, as: UTF8.self) }
  }

  /// The UTF-8 JSON text of this value; see ``serialized(options:)``.
  public func serializedBytes(options: WritingOptions = [.prettyPrinted, .sortedKeys]) -> [UInt8] {
    var writer = JSONWriter(options: options)
    writer.write(self)
    return writer.withOutput { Array($0) }
  }
}
