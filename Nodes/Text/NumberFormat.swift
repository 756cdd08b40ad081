import FlowRuntime

/// The number format after the colon of a `format` placeholder (Reference.md,
/// "Formulas"): `[,][.N](f|e|%)`, `[,]d` or `,` alone.
///
/// - `f`: `N` fixed decimals (6 if not given), rounding the double's exact binary value with
///   halves away from zero: `0.125` → `0.13`, `-0.375` → `-0.38`, but `2.675` (whose binary
///   value is 2.67499999…) → `2.67`, as Python's `Decimal(x)` with `ROUND_HALF_UP` does.
/// - `%`: the number times 100 (in double arithmetic, as Python), then as `f`, then `%`.
/// - `e`: one digit, `N` decimals and a signed exponent of at least two digits, as C and Python
///   write it (`4.202e+03`), halves away from zero as `f`.
/// - `d`: a whole number written in full (`1e20` as `100000000000000000000`); a fraction,
///   `nan` or `inf` fails the node.
/// - `,`: groups the digits before the point by threes (`1,437,000`); alone it groups the
///   placeholder's plain text (`{x}`'s form).
///
/// Integers (`Value.integer`) are formatted exactly from their digits, `Int64.max` included.
/// `nan`, `inf` and `-inf` are written as in `{x}` (`inf%` for `%`). A negative number that
/// rounds to zero keeps its sign (`-0.001` with `.2f` is `-0.00`), as C and Python write it.
struct NumberFormat: Sendable, Hashable {
  /// What a format writes.
  enum Style: Sendable, Hashable {
    /// The plain `{x}` text (only with grouping: `{x:,}`).
    case plain
    /// `f`: fixed decimals.
    case fixed
    /// `%`: percent, fixed decimals.
    case percent
    /// `e`: exponent notation.
    case exponent
    /// `d`: a whole number.
    case integer
  }

  /// The most decimals a format may ask for.
  static let maxPrecision = 100

  var style: Style
  /// Decimals after the point (`fixed`, `percent`, `exponent`).
  var precision: Int
  /// Whether digits before the point are grouped by threes with `,`.
  var grouped: Bool

  /// Parses a spec (the text after the colon, not empty).
  ///
  /// - Returns: `nil` when `spec` is not a format this node knows.
  init?(_ spec: Substring) {
    var bytes = spec.utf8[...]
    grouped = bytes.first == UInt8(ascii: ",")
    if grouped { bytes = bytes.dropFirst() }
    var digits: Int?
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      var value = 0, count = 0
      while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        count += 1
        bytes = bytes.dropFirst()
        guard count <= 3 else { return nil }
      }
      guard count > 0, value <= Self.maxPrecision else { return nil }
      digits = value
    }
    switch bytes.first {
    case UInt8(ascii: "f"): style = .fixed
    case UInt8(ascii: "%"): style = .percent
    case UInt8(ascii: "e"): style = .exponent
    case UInt8(ascii: "d"):
      guard digits == nil else { return nil }
      style = .integer
    case nil:
      guard grouped, digits == nil else { return nil }
      style = .plain
    default: return nil
    }
    if !bytes.isEmpty { bytes = bytes.dropFirst() }
    guard bytes.isEmpty else { return nil }
    precision = digits ?? 6
  }

  /// The formats a message suggests.
  static let examples = ".2f, ,, ,.1f, .1%, .3e or d"

  /// Why a value cannot be written with a format.
  enum Problem: Error, Equatable {
    /// The value is not a number (its type name).
    case notANumber(String)
    /// `d` of a number that is not whole (its text).
    case notWhole(String)
  }

  /// `value` written with this format.
  ///
  /// - Throws: `Problem` for a value that is not a number, or not whole for `d`.
  func text(of value: Value) throws(Problem) -> String {
    switch value {
    case .integer(let n): return text(ofInteger: n)
    case .number(let x): return try text(ofNumber: x)
    default: throw .notANumber(value.typeName)
    }
  }

  private func text(ofInteger n: Int64) -> String {
    let digits = String(n.magnitude)
    let sign = n < 0 ? "-" : ""
    let zeros = precision > 0 ? "." + String(repeating: "0", count: precision) : ""
    switch style {
    case .plain, .integer: return sign + group(digits)
    case .fixed: return sign + group(digits) + zeros
    case .percent: return sign + group(n == 0 ? digits : digits + "00") + zeros + "%"
    case .exponent: return sign + Self.exponentText(ofDigits: Array(digits.utf8), precision: precision)
    }
  }

  private func text(ofNumber x: Double) throws(Problem) -> String {
    guard x.isFinite else {
      if style == .integer { throw .notWhole(Value.number(x).text) }
      let text = x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf")
      return style == .percent ? text + "%" : text
    }
    switch style {
    case .plain:
      let text = Value.number(x).text
      return text.contains("e") ? text : group(text)
    case .fixed: return group(Self.fixedText(x, decimals: precision))
    case .percent: return group(Self.fixedText(x * 100, decimals: precision)) + "%"
    case .exponent: return Self.exponentText(x, precision: precision)
    case .integer:
      guard x.rounded(.towardZero) == x else { throw .notWhole(Value.number(x).text) }
      if let n = Int64(exactly: x) { return text(ofInteger: n) }
      return group(Self.fixedText(x, decimals: 0))
    }
  }

  /// `text` with the digits before its point (after any sign) grouped by threes, if `grouped`.
  private func group(_ text: String) -> String {
    guard grouped else { return text }
    let bytes = Array(text.utf8)
    let start = bytes.first == UInt8(ascii: "-") ? 1 : 0
    let end = bytes[start...].firstIndex(where: { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") }) ?? bytes.count
    var result: [UInt8] = Array(bytes[..<start])
    result.reserveCapacity(bytes.count + (end - start) / 3)
    for index in start..<end {
      if index > start, (end - index) % 3 == 0 { result.append(UInt8(ascii: ",")) }
      result.append(bytes[index])
    }
    result += bytes[end...]
    return String(decoding: result, as: UTF8.self)
  }
}
