/// A number read from text: an integer when the text has no fraction or exponent and fits
/// Int64, else a `Double` (correctly rounded).
enum ParsedNumber: Equatable {
  case integer(Int64)
  case number(Double)
}

/// Parses decimal numbers from UTF-8 bytes without making a `String` (SPEC: an optional sign,
/// digits, an optional fraction, an optional exponent, surrounding spaces allowed; no hex,
/// `inf`, `nan` or inner spaces).
///
/// Invariants: reads only `buffer[start..<end]`, which the caller guarantees is in bounds.
/// Values with at most 19 significant digits and a power of ten up to 22 are converted exactly
/// (Clinger's fast path: one correctly rounded multiplication or division); others go through
/// the standard library's correctly rounded conversion of the validated text.
enum UnsafeDecimalParser {
  static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// The number `buffer[start..<end]` spells, or `nil`.
  static func parse(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ParsedNumber? {
    var i = start, stop = end
    while i < stop && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
    while stop > i && (buffer[stop - 1] == 0x20 || buffer[stop - 1] == 0x09) { stop -= 1 }
    guard i < stop else { return nil }
    let textStart = i
    var negative = false
    if buffer[i] == UInt8(ascii: "-") || buffer[i] == UInt8(ascii: "+") {
      negative = buffer[i] == UInt8(ascii: "-")
      i += 1
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var digits = 0
    var decimalExponent = 0
    var overflow = false
    while i < stop, case let digit = buffer[i] &- 0x30, digit < 10 {
      digits += 1
      if significant < 19 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
        if mantissa != 0 { significant += 1 }
      } else {
        overflow = true
        decimalExponent += 1
      }
      i += 1
    }
    var isInteger = true
    if i < stop && buffer[i] == UInt8(ascii: ".") {
      isInteger = false
      i += 1
      while i < stop, case let digit = buffer[i] &- 0x30, digit < 10 {
        digits += 1
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(digit)
          if mantissa != 0 { significant += 1 }
          decimalExponent -= 1
        } else {
          overflow = true
        }
        i += 1
      }
    }
    guard digits > 0 else { return nil }
    if i < stop && (buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E")) {
      isInteger = false
      i += 1
      var exponentNegative = false
      if i < stop && (buffer[i] == UInt8(ascii: "-") || buffer[i] == UInt8(ascii: "+")) {
        exponentNegative = buffer[i] == UInt8(ascii: "-")
        i += 1
      }
      var exponent = 0
      var exponentDigits = 0
      while i < stop, case let digit = buffer[i] &- 0x30, digit < 10 {
        if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
        exponentDigits += 1
        i += 1
      }
      guard exponentDigits > 0 else { return nil }
      decimalExponent += exponentNegative ? -exponent : exponent
    }
    guard i == stop else { return nil }
    if isInteger && !overflow {
      if negative {
        if mantissa <= UInt64(Int64.max) { return .integer(-Int64(mantissa)) }
        if mantissa == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
      } else if mantissa <= UInt64(Int64.max) {
        return .integer(Int64(mantissa))
      }
    }
    if !overflow && mantissa < (1 << 53) && decimalExponent >= -22 && decimalExponent <= 22 {
      var value = Double(mantissa)
      value = decimalExponent < 0 ? value / powersOfTen[-decimalExponent] : value * powersOfTen[decimalExponent]
      return .number(negative ? -value : value)
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[textStart..<stop]), as: UTF8.self)
    // A literal beyond the double range (`1e400`) is no number: reading it as `inf` would write
    // back as text that no longer reads as one.
    guard let value = Double(text), value.isFinite else { return nil }
    return .number(value)
  }

  /// A plain decimal of at most 15 digits — an optional `-`, digits with at most one `.` — as
  /// the number `UnsafeDecimalParser` makes of it (an integer converts; a fraction is one
  /// correctly rounded division by an exact power of ten), or `nil` for anything else.
  @inline(__always)
  static func plain(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var i = start
    guard end > i, end - i <= 17 else { return nil }
    let negative = buffer[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    var mantissa: Int64 = 0, digits = 0, scale = 1.0, point = false
    while i < end {
      let byte = buffer[i]
      let digit = byte &- 0x30
      if digit < 10 {
        mantissa = mantissa &* 10 &+ Int64(digit)
        digits += 1
        if point { scale *= 10 }
      } else if byte == UInt8(ascii: ".") && !point {
        point = true
      } else {
        return nil
      }
      i += 1
    }
    guard digits > 0 && digits <= 15 else { return nil }
    if !point { return Double(negative ? -mantissa : mantissa) }
    let value = Double(mantissa) / scale
    return negative ? -value : value
  }

  /// The number `text` spells (see the type's grammar), or `nil`.
  static func parse(_ text: String) -> ParsedNumber? {
    var text = text
    return text.withUTF8 { parse($0, 0, $0.count) }
  }
}
