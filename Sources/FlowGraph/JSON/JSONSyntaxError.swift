/// A syntax error found while parsing a JSON document.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, e.g. `expected ':' after object key`.
  public var message: String
  /// The byte offset of the offending byte (the input length for an
  /// unexpected end of input).
  public var offset: Int
  /// The 1-based line of the offending byte. Lines are separated by `\n`.
  public var line: Int
  /// The 1-based column of the offending byte, counted in bytes.
  public var column: Int

  public init(message: String, offset: Int, line: Int, column: Int) {
    self.message = message
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// `line 3, column 14: expected ',' or '}' after an object member`
  public var description: String {
    "line \(line), column \(column): \(message)"
  }
}
