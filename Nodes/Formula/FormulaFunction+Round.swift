/// `round(x, digits)`: rounding to decimals as people expect from the decimal they read.
///
/// `round(2.675, 2)` is 2.68, although the double nearest 2.675 lies just below it (a binary
/// scaling `2.675 * 100` gives 267.49999999999997, which rounds to 267). The choice: round the
/// **shortest decimal that reads back as x** (the text `flow run` prints), halves away from
/// zero. Exactly, without `Decimal`: the scaled value `x · 10^digits` decides alone unless it
/// lies within a few ulps of a half; only then are the shortest decimal digits of `x` (Swift's
/// round-trip `description`) rounded as text and read back. So `round(x, d)` equals the
/// rounding of the printed number, and costs a multiply and a compare on almost every row.

/// `round(x, digits)`; `digits` is truncated to an integer (a NaN `digits` gives NaN); negative
/// digits round to tens, hundreds… (`round(1234, -2)` is 1200).
func formulaRound(_ x: Double, digits rawDigits: Double) -> Double {
  guard rawDigits.isFinite else { return rawDigits.isNaN ? .nan : x }
  guard x.isFinite, x != 0 else { return x }
  let digits = Int(max(-400, min(400, rawDigits.rounded(.towardZero))))
  if digits == 0 { return x.rounded(.toNearestOrAwayFromZero) }
  if digits > 0 && x.magnitude >= 0x1p52 { return x }  // already a whole number
  if digits >= 17 { return x }  // every double has at most 17 significant digits
  if digits <= -309 { return 0 * x }
  let scale = power10(digits.magnitude)
  let scaled = digits > 0 ? x * scale : x / scale
  guard scaled.isFinite else { return x }
  let fraction = (scaled - scaled.rounded(.towardZero)).magnitude
  // Far from a half (beyond the scaling's rounding error, a few ulps of `scaled`): the binary
  // rounding is the decimal one. Near a half, the decimal digits decide.
  if (fraction - 0.5).magnitude > max(1e-6, 4 * scaled.ulp) {
    let whole = scaled.rounded(.toNearestOrAwayFromZero)
    return digits > 0 ? whole / scale : whole * scale
  }
  return decimalRound(x, digits: digits)
}

/// 10^n as a double (exact for n ≤ 22).
private func power10(_ n: UInt) -> Double {
  var result = 1.0
  for _ in 0..<n { result *= 10 }
  return result
}

/// Rounds the shortest round-trip decimal digits of `x` to `digits` decimals, halves away from
/// zero, and reads the result back.
private func decimalRound(_ x: Double, digits: Int) -> Double {
  // "2.675", "1e-05", "1.2345e+20": a mantissa with one point, an optional exponent.
  let text = x.magnitude.description
  var mantissa = Substring(text), exponent = 0
  if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
    mantissa = text[..<e]
    exponent = Int(text[text.index(after: e)...]) ?? 0
  }
  var decimals: [UInt8] = []
  var pointAt = -1
  for byte in mantissa.utf8 {
    if byte == UInt8(ascii: ".") { pointAt = decimals.count } else { decimals.append(byte - UInt8(ascii: "0")) }
  }
  if pointAt < 0 { pointAt = decimals.count }
  pointAt += exponent  // the digits before the decimal point
  let kept = pointAt + digits  // the digits that stay
  if kept >= decimals.count { return x }
  if kept < 0 { return 0 * x }
  var whole: UInt64 = 0
  for digit in decimals[..<kept] { whole = whole * 10 + UInt64(digit) }
  if decimals[kept] >= 5 { whole += 1 }
  let magnitude = Double("\(whole)e\(-digits)") ?? .nan
  return x < 0 ? -magnitude : magnitude
}
