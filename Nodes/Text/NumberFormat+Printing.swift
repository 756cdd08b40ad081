#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Invariants: `printC` writes at most `bufferSize` bytes into a buffer it owns; with at most
// `NumberFormat.maxPrecision` (100) decimals a double's `%f` text is at most 1 + 309 + 1 + 100
// bytes and its `%e` text far less, so the buffer always holds it.

/// Decimal text of doubles: C's `printf` (exact on the binary value: glibc prints the exact
/// decimal expansion, rounded half to even) with the one difference the SPEC asks for, halves
/// away from zero. A double is an exact tie only when its binary value ends exactly one
/// decimal place after the last one kept; then the text one place longer is exact and ends in
/// `5`, and rounding it up by hand gives the half away from zero. Every other value rounds the
/// same either way, so C's text is kept.
extension NumberFormat {
  private static let bufferSize = 512

  /// `x` with `decimals` digits after the point, halves away from zero.
  static func fixedText(_ x: Double, decimals: Int) -> String {
    // x = M·2^E with M odd; x·10^d·2 = M·5^d·2^(E+d+1) is an odd integer iff E = -(d + 1).
    guard x != 0, x.isFinite, x.exponent - x.significandWidth == -(decimals + 1) else {
      return printC("%.*f", decimals, x)
    }
    var bytes = Array(printC("%.*f", decimals + 1, x).utf8)
    bytes.removeLast()  // the exact trailing 5
    if decimals == 0 { bytes.removeLast() }  // the point
    return String(decoding: incremented(bytes), as: UTF8.self)
  }

  /// `x` as `d.ddde±XX` with `precision` decimals, halves away from zero.
  static func exponentText(_ x: Double, precision: Int) -> String {
    guard x != 0, x.isNormal else { return printC("%.*e", precision, x) }
    let longer = Array(printC("%.*e", precision + 1, x).utf8)
    guard let e = longer.firstIndex(of: UInt8(ascii: "e")), e > 0, longer[e - 1] == UInt8(ascii: "5"),
      let k = Int(String(decoding: longer[(e + 1)...], as: UTF8.self)), isTie(x, exponent: k, precision: precision)
    else {
      return printC("%.*e", precision, x)
    }
    var mantissa = Array(longer[..<(e - 1)])
    if precision == 0 { mantissa.removeLast() }  // the point
    let sign = mantissa.first == UInt8(ascii: "-") ? [UInt8(ascii: "-")] : []
    return String(decoding: sign, as: UTF8.self) + roundedExponent(Array(mantissa.dropFirst(sign.count)), k, up: true)
  }

  /// Whether `x`, written as `d.ddd…e±k`, is exactly halfway between two texts with
  /// `precision` decimals: x·10^(precision−k)·2 is an odd integer.
  private static func isTie(_ x: Double, exponent k: Int, precision: Int) -> Bool {
    let binaryExponent = x.exponent - x.significandWidth  // x = M·2^E, M odd
    guard binaryExponent == k - precision - 1 else { return false }
    guard k > precision else { return true }
    // x·2/10^(k−p) = M·2^(E+1)/(2^(k−p)·5^(k−p)) = M/5^(k−p): odd integer iff 5^(k−p) divides M.
    var m = UInt64(Double(sign: .plus, exponent: -binaryExponent, significand: x.magnitude))
    for _ in 0..<(k - precision) {
      guard m % 5 == 0 else { return false }
      m /= 5
    }
    return true
  }

  /// The exponent text of an integer's decimal `digits` (its magnitude, no leading zeros),
  /// with `precision` decimals, exactly, halves away from zero.
  static func exponentText(ofDigits digits: [UInt8], precision: Int) -> String {
    guard digits != [UInt8(ascii: "0")] else {
      return "0" + (precision > 0 ? "." + String(repeating: "0", count: precision) : "") + "e+00"
    }
    var kept = Array(digits.prefix(precision + 1))
    kept += repeatElement(UInt8(ascii: "0"), count: precision + 1 - kept.count)
    let up = digits.count > precision + 1 && digits[precision + 1] >= UInt8(ascii: "5")
    var mantissa = [kept[0]]
    if precision > 0 { mantissa += [UInt8(ascii: ".")] + kept[1...] }
    return roundedExponent(mantissa, digits.count - 1, up: up)
  }

  /// `mantissa` (`d.ddd`, no sign), rounded up one unit in its last place if `up`, then
  /// `e±XX` for exponent `k` (one more if rounding carried to `10.00…`).
  private static func roundedExponent(_ mantissa: [UInt8], _ k: Int, up: Bool) -> String {
    var mantissa = mantissa, k = k
    if up {
      let rounded = incremented(mantissa)
      if rounded.count > mantissa.count {
        // Every digit was 9 (9.99 became 10.00): 1.00 with the next exponent.
        mantissa = [UInt8(ascii: "1")] + rounded.dropFirst(2)
        k += 1
      } else {
        mantissa = rounded
      }
    }
    let magnitude = k.magnitude
    return String(decoding: mantissa, as: UTF8.self) + (k < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "")
      + String(magnitude)
  }

  /// The decimal text `bytes` (an optional `-`, digits and at most one `.`) one unit larger in
  /// magnitude in its last place: `-9.9` → `-10.0`.
  static func incremented(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    var index = bytes.count - 1
    while index >= 0 {
      switch bytes[index] {
      case UInt8(ascii: "."): index -= 1
      case UInt8(ascii: "-"): bytes.insert(UInt8(ascii: "1"), at: index + 1); return bytes
      case UInt8(ascii: "9"): bytes[index] = UInt8(ascii: "0"); index -= 1
      default: bytes[index] += 1; return bytes
      }
    }
    bytes.insert(UInt8(ascii: "1"), at: 0)
    return bytes
  }

  /// C's `printf` of `x` with `format` taking a precision and a double (`%.*f`, `%.*e`).
  private static func printC(_ format: String, _ precision: Int, _ x: Double) -> String {
    var buffer = [CChar](repeating: 0, count: bufferSize)
    let count = withVaList([Int32(precision), x]) { arguments in
      vsnprintf(&buffer, bufferSize, format, arguments)
    }
    precondition(
      count >= 0 && Int(count) < bufferSize, "Internal inconsistency: a number's text does not fit its buffer")
    return buffer.withUnsafeBytes { String(decoding: $0.prefix(Int(count)), as: UTF8.self) }
  }
}
