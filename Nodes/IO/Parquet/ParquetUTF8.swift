/// UTF-8 validation of byte arrays (a byte array without a string annotation is text only
/// when it is UTF-8).
enum ParquetUTF8 {
  /// Whether `bytes[range]` is well-formed UTF-8 (no overlongs, surrogates or values past
  /// U+10FFFF).
  static func isValid(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    let end = range.upperBound
    while index < end {
      let lead = bytes[index]
      if lead < 0x80 { index += 1; continue }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; upper = 0x9F
      case 0xF0: length = 4; lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; upper = 0x8F
      default: return false
      }
      guard end - index >= length, (lower...upper).contains(bytes[index + 1]) else { return false }
      for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
      index += length
    }
    return true
  }
}
