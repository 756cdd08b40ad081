/// Splits a formula into tokens on demand (so that errors are reported in source order), for
/// both formula languages: ``FormulaContext`` says which tokens exist.
///
/// Every valid token outside a string literal or a backticked name is ASCII; the first other
/// non-ASCII character is an "unexpected character" error.
struct FormulaLexer {
  let source: String
  let bytes: [UInt8]
  var position = 0
  private var lookahead: FormulaToken?
  /// Whether the row-formula tokens (strings, backticks, comparisons) are recognized; the
  /// calculator language (`expression`) reports them as unexpected characters.
  let allowsRowSyntax: Bool

  init(_ source: String, context: FormulaContext) {
    self.source = source
    self.bytes = Array(source.utf8)
    self.allowsRowSyntax = context.allowsRowTokens
  }

  /// Returns the next token without consuming it.
  mutating func peek() throws(FormulaError) -> FormulaToken {
    if let lookahead { return lookahead }
    let token = try scan()
    lookahead = token
    return token
  }

  /// Consumes and returns the next token. After the end it keeps returning `.end`.
  mutating func next() throws(FormulaError) -> FormulaToken {
    if let token = lookahead {
      lookahead = nil
      return token
    }
    return try scan()
  }

  /// The source text of a token.
  func text(of token: FormulaToken) -> String {
    String(decoding: bytes[token.start..<token.end], as: UTF8.self)
  }

  /// The 1-based character column of a UTF-8 offset that lies on a Unicode scalar boundary.
  func column(atOffset offset: Int) -> Int {
    Self.column(in: source, atOffset: offset)
  }

  /// The 1-based character column of a UTF-8 offset of `source` that lies on a Unicode scalar
  /// boundary.
  static func column(in source: String, atOffset offset: Int) -> Int {
    let utf8 = source.utf8
    let index = utf8.index(utf8.startIndex, offsetBy: offset)
    return Substring(source.unicodeScalars[..<index]).count + 1
  }

  /// Builds an error located at a UTF-8 offset.
  func error(_ message: String, atOffset offset: Int) -> FormulaError {
    FormulaError(message: message, column: column(atOffset: offset))
  }

  // MARK: - Scanning

  private mutating func scan() throws(FormulaError) -> FormulaToken {
    let count = bytes.count
    while position < count, Self.isWhitespace(bytes[position]) {
      position += 1
    }
    let start = position
    guard position < count else {
      return FormulaToken(kind: .end, start: start, end: start)
    }
    let byte = bytes[position]
    let kind: FormulaToken.Kind
    switch byte {
    case UInt8(ascii: "+"): kind = .plus
    case UInt8(ascii: "-"): kind = .minus
    case UInt8(ascii: "*"): kind = .star
    case UInt8(ascii: "/"): kind = .slash
    case UInt8(ascii: "%"): kind = .percent
    case UInt8(ascii: "^"): kind = .caret
    case UInt8(ascii: "("): kind = .leftParen
    case UInt8(ascii: ")"): kind = .rightParen
    case UInt8(ascii: ","): kind = .comma
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
      return try scanNumber()
    case _ where Self.isIdentifierStart(byte):
      position += 1
      while position < count, Self.isIdentifierContinue(bytes[position]) {
        position += 1
      }
      return FormulaToken(kind: .identifier, start: start, end: position)
    default:
      if allowsRowSyntax, let token = try scanRowToken() { return token }
      throw unexpectedCharacter(atOffset: start)
    }
    position += 1
    return FormulaToken(kind: kind, start: start, end: position)
  }

  /// Scans `digits [. digits] [(e|E) [+|-] digits]`, where the mantissa needs at least one
  /// digit. An `e` not followed by a digit (optionally after a sign) is not part of the number.
  private mutating func scanNumber() throws(FormulaError) -> FormulaToken {
    let count = bytes.count
    let start = position
    var digits = 0
    var dots = 0
    var integer: Double = 0
    while position < count {
      let byte = bytes[position]
      if Self.isDigit(byte) {
        digits += 1
        integer = integer * 10 + Double(byte &- UInt8(ascii: "0"))
      } else if byte == UInt8(ascii: ".") {
        dots += 1
      } else {
        break
      }
      position += 1
    }
    if digits == 0 || dots > 1 {
      throw malformedNumber(from: start)
    }
    var hasExponent = false
    if let length = exponentPrefixLength(at: position) {
      hasExponent = true
      position += length
      while position < count, Self.isDigit(bytes[position]) {
        position += 1
      }
      if position < count, bytes[position] == UInt8(ascii: ".") {
        throw malformedNumber(from: start)
      }
    }
    let exact = dots == 0 && !hasExponent ? exactInteger(from: start) : nil
    let value: Double
    if dots == 0, !hasExponent, digits <= 15 {
      // Integers below 10^15 are exact in a Double, so the running sum is the exact value.
      value = integer
    } else {
      let text = String(decoding: bytes[start..<position], as: UTF8.self)
      guard let parsed = Double(text) else {
        throw error("malformed number \(Self.quoted(text))", atOffset: start)
      }
      value = parsed
    }
    return FormulaToken(kind: .number(value, integer: exact), start: start, end: position)
  }

  /// The value of the digits from `start` to `position` as an `Int64`, or nil past 2^63 - 1.
  private func exactInteger(from start: Int) -> Int64? {
    var value: Int64 = 0
    for byte in bytes[start..<position] {
      let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = shifted.addingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
      if overflowA || overflowB { return nil }
      value = sum
    }
    return value
  }

  /// If an exponent starts at `offset` (`e` or `E`, an optional sign, then a digit), the length
  /// of its `e[+|-]` part; otherwise nil.
  private func exponentPrefixLength(at offset: Int) -> Int? {
    let count = bytes.count
    guard offset < count, bytes[offset] | 0x20 == UInt8(ascii: "e") else { return nil }
    var probe = offset + 1
    if probe < count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") {
      probe += 1
    }
    guard probe < count, Self.isDigit(bytes[probe]) else { return nil }
    return probe - offset
  }

  /// Consumes the rest of a number-like run (digits, dots and exponents) and reports it.
  private mutating func malformedNumber(from start: Int) -> FormulaError {
    let count = bytes.count
    while position < count {
      let byte = bytes[position]
      if Self.isDigit(byte) || byte == UInt8(ascii: ".") {
        position += 1
      } else if let length = exponentPrefixLength(at: position) {
        position += length
      } else {
        break
      }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    return error("malformed number \(FormulaLexer.quoted(text))", atOffset: start)
  }

  func unexpectedCharacter(atOffset offset: Int) -> FormulaError {
    let utf8 = source.utf8
    let index = utf8.index(utf8.startIndex, offsetBy: offset)
    let scalar = source.unicodeScalars[index]
    let shown: String
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator,
      .surrogate, .privateUse, .unassigned:
      shown = scalar.escaped(asASCII: true)
    default:
      shown = String(scalar)
    }
    return error("unexpected character '\(shown)'", atOffset: offset)
  }

  /// Wraps source text in single quotes for a message, shortening very long text.
  static func quoted(_ text: String) -> String {
    let limit = 40
    if text.utf8.count <= limit { return "'\(text)'" }
    return "'\(text.prefix(limit))…'"
  }

  // MARK: - Character classes

  @inline(__always)
  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
      || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  @inline(__always)
  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
  }

  @inline(__always)
  private static func isIdentifierContinue(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || isDigit(byte)
  }
}
