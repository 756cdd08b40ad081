/// Numbers: the integer fast path and the exact decimal parser of `JSONParser` (`UnsafeJSONParser.swift`).
///
/// Unsafe for the same reason and under the same invariants as the parser itself (see the
/// header of `UnsafeJSONParser.swift`): every read of `base[i]` follows a check `i < count`,
/// and strings and numbers are made only from ranges already scanned inside the buffer.
extension JSONParser {
  /// Exact powers of ten for the fast path.
  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  ]

  /// Parses a number as a value; `index` is at `-` or a digit.
  ///
  /// An integer literal (no fraction, no exponent, no leading zero) of at most 19 digits that
  /// fits in `Int64` is read by one tight digit loop into `.integer`; everything else (a
  /// fraction, an exponent, `-0`, more digits, out of range, a syntax error) goes to
  /// `parseNumber()` from the start and becomes `.number` (or the error).
  @inline(__always)
  mutating func parseNumberValue() throws(JSONSyntaxError) -> JSONValue {
    var position = index
    let negative = base[position] == UInt8(ascii: "-")
    if negative {
      position &+= 1
    }
    let digitsStart = position
    var magnitude: UInt64 = 0
    while position < count {
      let digit = base[position] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      magnitude = magnitude &* 10 &+ UInt64(digit)  // wraps only past 19 digits, rejected below
      position &+= 1
    }
    let digitCount = position &- digitsStart
    if digitCount > 0 && digitCount <= 19 && (digitCount == 1 || base[digitsStart] != UInt8(ascii: "0"))
      && (position == count || (base[position] != UInt8(ascii: ".") && base[position] | 0x20 != UInt8(ascii: "e")))
    {
      if negative {
        if magnitude != 0 && magnitude <= UInt64(Int64.max) &+ 1 {
          index = position
          return .integer(Int64(bitPattern: 0 &- magnitude))
        }
      } else if magnitude <= UInt64(Int64.max) {
        index = position
        return .integer(Int64(magnitude))
      }
    }
    return .number(try parseNumber())
  }

  /// Parses a number as a `Double`; `index` is at `-` or a digit.
  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    let negative = base[index] == UInt8(ascii: "-")
    if negative {
      index += 1
    }

    // Up to 19 significant digits accumulate exactly in a UInt64.
    var mantissa: UInt64 = 0
    var significantDigits = 0
    var decimalExponent = 0

    // Integer part.
    guard index < count else {
      throw error("unexpected end of input inside a number", at: count)
    }
    var byte = base[index]
    if byte == UInt8(ascii: "0") {
      index += 1
      if index < count && Self.isDigit(base[index]) {
        throw error("leading zeros are not allowed", at: index)
      }
    } else if Self.isDigit(byte) {
      repeat {
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
          significantDigits += 1
        } else {
          significantDigits += 1
          decimalExponent += 1
        }
        index += 1
        guard index < count else { break }
        byte = base[index]
      } while Self.isDigit(byte)
    } else {
      throw error("expected a digit after '-'", at: index)
    }

    // Fraction.
    if index < count && base[index] == UInt8(ascii: ".") {
      index += 1
      guard index < count else {
        throw error("unexpected end of input inside a number", at: count)
      }
      guard Self.isDigit(base[index]) else {
        throw error("expected a digit after the decimal point", at: index)
      }
      repeat {
        let digit = base[index] &- UInt8(ascii: "0")
        if mantissa == 0 && digit == 0 {
          decimalExponent -= 1  // leading zero: not significant
        } else if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(digit)
          significantDigits += 1
          decimalExponent -= 1
        } else {
          significantDigits += 1
        }
        index += 1
      } while index < count && Self.isDigit(base[index])
    }

    // Exponent.
    if index < count && (base[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      guard index < count else {
        throw error("unexpected end of input inside a number", at: count)
      }
      var exponentNegative = false
      if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
        exponentNegative = base[index] == UInt8(ascii: "-")
        index += 1
        guard index < count else {
          throw error("unexpected end of input inside a number", at: count)
        }
      }
      guard Self.isDigit(base[index]) else {
        throw error("expected a digit in the exponent", at: index)
      }
      var exponent = 0
      repeat {
        if exponent < 100_000 {
          exponent = exponent * 10 + Int(base[index] &- UInt8(ascii: "0"))
        }
        index += 1
      } while index < count && Self.isDigit(base[index])
      decimalExponent += exponentNegative ? -exponent : exponent
    }

    // Fast path (Clinger): the mantissa and 10^|e| are both exact doubles,
    // so one correctly rounded multiplication or division gives the answer.
    if significantDigits <= 19 && mantissa <= 1 << 53 {
      var result: Double?
      if decimalExponent == 0 {
        result = Double(mantissa)
      } else if decimalExponent > 0 && decimalExponent <= 22 {
        result = Double(mantissa) * Self.powersOfTen[decimalExponent]
      } else if decimalExponent < 0 && decimalExponent >= -22 {
        result = Double(mantissa) / Self.powersOfTen[-decimalExponent]
      } else if mantissa == 0 {
        result = 0
      }
      if let result {
        return negative ? -result : result
      }
    }

    // Slow path: correctly rounded conversion by the standard library.
    let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
    guard let result = Double(text), result.isFinite else {
      throw error("number out of range", at: start)
    }
    return result
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }
}
