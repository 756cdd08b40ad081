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
/// Invariants: reads only `buffer[start..<end]`, which the caller guarantees is in bounds, and
/// (`plainInteger`, `plain`) the 8-byte word at `start` only where `start + 8 <= buffer.count`.
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
    guard end > start, end - start <= 17 else { return nil }
    if let base = buffer.baseAddress, end &- start <= 8, start &+ 8 <= buffer.count {
      return plainWord(
        UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: start, as: UInt64.self)),
        length: end &- start)
    }
    return plainBytes(buffer, start, end)
  }

  /// `plain` a byte at a time (a field of more than 8 bytes, or at the buffer's end; `end >
  /// start`): out of line, so the word path inlines into the column loops.
  @inline(never)
  static func plainBytes(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var i = start
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

  /// `plain` where the caller guarantees 8 readable bytes from `start` (`raw + start`), as for
  /// every cell of a run of records that ends 8 bytes or more before the buffer does: no test
  /// of the buffer's bounds per cell.
  @inline(__always)
  static func plain(readable raw: UnsafeRawPointer, _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Double?
  {
    let length = end &- start
    if UInt(bitPattern: length &- 1) < 8 {
      return plainWord(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)), length: length)
    }
    guard length > 0, length <= 17 else { return nil }
    return plainBytes(buffer, start, end)
  }

  /// `plainInteger` where the caller guarantees 8 readable bytes from `start` (see
  /// `plain(readable:)`).
  @inline(__always)
  static func plainInteger(
    readable raw: UnsafeRawPointer, _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> Int64? {
    let length = end &- start
    guard UInt(bitPattern: length &- 1) < 8 else { return length > 8 ? plainIntegerBytes(buffer, start, end) : nil }
    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    let negative = word & 0xFF == 0x2D
    let skip = negative ? 1 : 0
    guard length > skip, let value = eightDigits(word, skip: skip, digits: length &- skip) else { return nil }
    return negative ? -value : value
  }

  /// `plainInteger` of a cell of more than 8 bytes, a byte at a time (out of line).
  @inline(never)
  static func plainIntegerBytes(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
    plainInteger(buffer, start, end)
  }

  /// An optional `-` and 1–18 digits (the common integer cell) as the integer they spell, or
  /// `nil` for anything else. A field of at most 8 bytes with 8 readable bytes from its start
  /// is converted a word at a time (no branch per digit: the branch on a cell's length is the
  /// one a byte loop mispredicts); longer ones digit by digit.
  @inline(__always)
  static func plainInteger(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
    var i = start
    guard end > i, end - i <= 18 else { return nil }
    let negative = buffer[i] == UInt8(ascii: "-")
    if negative { i &+= 1; if i == end { return nil } }
    if let base = buffer.baseAddress, end &- start <= 8, start &+ 8 <= buffer.count {
      // The word holds the field's bytes from `start` (the sign too, if any), first byte lowest.
      guard
        let value = eightDigits(
          UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: start, as: UInt64.self)),
          skip: i &- start, digits: end &- i)
      else { return nil }
      return negative ? -value : value
    }
    var value: Int64 = 0
    while i < end {
      let digit = buffer[i] &- 0x30
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int64(digit)
      i &+= 1
    }
    return negative ? -value : value
  }

  /// The number the `digits` bytes of `word` after its first `skip` bytes spell (`skip +
  /// digits <= 8`, `digits >= 1`; the first byte lowest), or `nil` if one is not a digit.
  @inline(__always)
  static func eightDigits(_ word: UInt64, skip: Int, digits: Int) -> Int64? {
    if digits <= 4 { return fourDigits(word, skip: skip, digits: digits) }
    let ones: UInt64 = 0x0101_0101_0101_0101
    // The digits moved to the top bytes (the last digit highest; the bytes after the field
    // shift out); the bytes below them, the sign's included, become '0'.
    let moved = word &<< (UInt64(8 &- skip &- digits) &* 8)
    let padding = UInt64(8 &- digits) &* 8
    let low: UInt64 = padding == 0 ? 0 : (~UInt64(0)) &>> (64 &- padding)
    let text = (moved & ~low) | (0x30 &* ones & low)
    // Every byte in '0'...'9': its high nibble 3, and still 3 after adding 6 (no byte carries).
    guard text & (0xF0 &* ones) == 0x30 &* ones, (text &+ 6 &* ones) & (0xF0 &* ones) == 0x30 &* ones else {
      return nil
    }
    var value = text & (0x0F &* ones)
    value = (value &* (10 &<< 8 &+ 1)) &>> 8 & 0x00FF_00FF_00FF_00FF
    value = (value &* (100 &<< 16 &+ 1)) &>> 16 & 0x0000_FFFF_0000_FFFF
    value = (value &* (10_000 &<< 32 &+ 1)) &>> 32
    return Int64(value)
  }

  /// `eightDigits` of at most 4 digits (`digits` 1–4): the same in half the word, two
  /// multiplies instead of three (most integer cells are this short, and a column's cells
  /// mostly take the same branch).
  @inline(__always)
  static func fourDigits(_ word: UInt64, skip: Int, digits: Int) -> Int64? {
    let ones: UInt64 = 0x0101_0101
    // The digits in the top bytes of the low 32 bits (the last digit highest); the bytes below
    // them become '0'.
    let moved = ((word &>> (UInt64(skip) &* 8)) &<< (UInt64(4 &- digits) &* 8)) & 0xFFFF_FFFF
    let low: UInt64 = (1 &<< (UInt64(4 &- digits) &* 8)) &- 1
    let text = (moved & ~low) | (0x30 &* ones & low)
    guard text & (0xF0 &* ones) == 0x30 &* ones, (text &+ 6 &* ones) & (0xF0 &* ones) == 0x30 &* ones else {
      return nil
    }
    var value = text & (0x0F &* ones)
    value = (value &* (10 &<< 8 &+ 1)) &>> 8 & 0x00FF_00FF
    value = (value &* (100 &<< 16 &+ 1)) &>> 16 & 0xFFFF
    return Int64(value)
  }

  /// `plain` of a field of `length` bytes (1–8) that `word` holds from its first byte (the
  /// first byte lowest; bytes after the field are ignored): the point found and squeezed out
  /// a word at a time, the digits converted by `eightDigits`.
  @inline(__always)
  static func plainWord(_ word: UInt64, length: Int) -> Double? {
    let inField: UInt64 = length >= 8 ? ~0 : (1 &<< (UInt64(length) &* 8)) &- 1
    let negative = word & 0xFF == 0x2D
    let skip = negative ? 1 : 0
    let points = UnsafeCSVScanner.exactMatches(word, 0x2E2E_2E2E_2E2E_2E2E) & inField
    guard points & (points &- 1) == 0 else { return nil }  // two points
    var digitsWord = word, digits = length &- skip, fraction = 0
    if points != 0 {
      // The bytes after the point move down one place over it.
      let at = points.trailingZeroBitCount &>> 3
      let below: UInt64 = (1 &<< (UInt64(at) &* 8)) &- 1
      digitsWord = (word & below) | ((word &>> 8) & ~below)
      digits &-= 1
      fraction = length &- 1 &- at
    }
    guard digits >= 1, let mantissa = eightDigits(digitsWord, skip: skip, digits: digits) else { return nil }
    if points == 0 { return Double(negative ? -mantissa : mantissa) }
    let value = Double(mantissa) / powersOfTen[fraction]
    return negative ? -value : value
  }

  /// The number `text` spells (see the type's grammar), or `nil`.
  static func parse(_ text: String) -> ParsedNumber? {
    var text = text
    return text.withUTF8 { parse($0, 0, $0.count) }
  }
}
