import FlowTestSupport
import Testing
@testable import FlowNodes

/// The CSV number parsers (`UnsafeDecimalParser.parse`, its `plain` fast path, and the integer
/// column's `plainInteger`) against the standard library's `Int64(_:)` and `Double(_:)` on
/// random and edge inputs: overflow, `-0`, exponents, many digits, signs, stray characters.
@Suite struct NumberParseReferenceTests {
  /// What the grammar (sign, digits, fraction, exponent; no hex, `inf`, `nan`) makes of
  /// `text`, by the standard library: an integer if `Int64` reads it, else a finite `Double`.
  static func expected(_ text: String) -> ParsedNumber? {
    guard text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
    if let integer = Int64(text) { return .integer(integer) }
    // `Int64` refuses what has a fraction or exponent, or overflows: a double then.
    guard let value = Double(text), value.isFinite else { return nil }
    return .number(value)
  }

  static func same(_ a: ParsedNumber?, _ b: ParsedNumber?) -> Bool {
    switch (a, b) {
    case (.integer(let x)?, .integer(let y)?): return x == y
    case (.number(let x)?, .number(let y)?): return x.bitPattern == y.bitPattern
    case (nil, nil): return true
    default: return false
    }
  }

  /// The decimal fast path on `text` alone and inside a record (a word at a time when at most
  /// 8 bytes long): the same answer both ways, bit for bit.
  static func plain(_ text: String) -> Double? {
    let field = Array(text.utf8)
    let alone = field.withUnsafeBufferPointer { UnsafeDecimalParser.plain($0, 0, $0.count) }
    let record = Array("7,".utf8) + field + Array(",1.5,98765432\n".utf8)
    let inRecord = record.withUnsafeBufferPointer { UnsafeDecimalParser.plain($0, 2, 2 + field.count) }
    #expect(
      alone?.bitPattern == inRecord?.bitPattern,
      "\(text): \(String(describing: alone)) alone, \(String(describing: inRecord)) in a record")
    // A run's cells with 8 readable bytes (`plain(readable:)`, no bounds test per cell).
    let readable = record.withUnsafeBufferPointer {
      UnsafeDecimalParser.plain(readable: UnsafeRawPointer($0.baseAddress!), $0, 2, 2 + field.count)
    }
    #expect(readable?.bitPattern == inRecord?.bitPattern, "\(text): \(String(describing: readable)) readable")
    return alone
  }

  /// The integer fast path on `text` alone (read byte by byte unless it is 8 bytes long), and
  /// followed by other cells (read a word at a time when it is at most 8 bytes long): both
  /// give the same answer, or the test records an issue.
  static func plainInteger(_ text: String) -> Int64? {
    func read(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int64? {
      bytes.withUnsafeBufferPointer { buffer in
        UnsafeCSVColumnParser.plainInteger(
          CSVField(start: start, end: end, quoted: false, escaped: false),
          UnsafeCSVScanner(buffer, delimiter: 0x2C, atFileStart: false))
      }
    }
    let field = Array(text.utf8)
    let alone = read(field, 0, field.count)
    // Inside a record: a cell before it and digits after it (which the word holds too).
    let record = Array("7,".utf8) + field + Array(",98765432\n".utf8)
    let inRecord = read(record, 2, 2 + field.count)
    #expect(
      alone == inRecord, "\(text): \(String(describing: alone)) alone, \(String(describing: inRecord)) in a record")
    let direct = record.withUnsafeBufferPointer { UnsafeDecimalParser.plainInteger($0, 2, 2 + field.count) }
    let readable = record.withUnsafeBufferPointer {
      UnsafeDecimalParser.plainInteger(readable: UnsafeRawPointer($0.baseAddress!), $0, 2, 2 + field.count)
    }
    #expect(
      direct == inRecord && readable == inRecord,
      "\(text): \(String(describing: direct)), \(String(describing: readable)) readable")
    return alone
  }

  static let edges = [
    "0", "-0", "+0", "00", "-00.000", "0.0", "-0.0", "1", "-1", "+1", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "-9223372036854775809", "99999999999999999999", "12345678901234567890123456789",
    "1e0", "1E5", "1e-5", "1e+5", "-1.5e-300", "1e308", "1.7976931348623157e308", "1e309", "1e400", "1e-400",
    "4.9e-324",
    "2.2250738585072014e-308", "0.1", "0.2", "0.30000000000000004", "123456789012345.6", "1234567890123456.7",
    "9007199254740993", "9007199254740993.0", "0.000000000000000000000000000001",
    "3.14159265358979323846264338327950288",
    "5.", ".5", "-.5", ".", "-", "+", "", "e5", "1e", "1e+", "--1", "+-1", "1.2.3", "1e5.5", "1-2", "0x10", "inf",
    "nan",
    "92306.59", "-17.25", "1000000", "18446744073709551616", "0.08", "8.8817841970012523e-16"
  ]

  static func randomNumberText(_ random: inout SeededRandom) -> String {
    func digits(_ range: ClosedRange<Int>) -> String {
      String(
        (0..<Int.random(in: range, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random)))
        })
    }
    switch Int.random(in: 0..<5, using: &random) {
    case 4:
      // Short cells (at most 8 bytes: the word-at-a-time paths), points anywhere, signs.
      let sign = ["", "", "-", "+"][Int.random(in: 0..<4, using: &random)]
      let point = Int.random(in: 0..<3, using: &random) == 0 ? "" : "."
      return sign + digits(0...4) + point + digits(0...3)
    case 0:
      // Anything over the number alphabet.
      let alphabet = Array("0123456789.eE-+")
      return String(
        (0..<Int.random(in: 0...24, using: &random)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        })
    case 1:
      // Integers of every length, near and past the Int64 range.
      let digits = Int.random(in: 1...22, using: &random)
      let sign = ["", "-", "+"][Int.random(in: 0..<3, using: &random)]
      return sign + String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
    case 2:
      // Decimals: short (the fast path's), long, with zeros.
      let whole = String(
        (0..<Int.random(in: 0...10, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random)))
        })
      let fraction = String(
        (0..<Int.random(in: 1...20, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random)))
        })
      return (Bool.random(using: &random) ? "-" : "") + whole + "." + fraction
    default:
      // Scientific notation across the double range and past it.
      let mantissa = Double(Int.random(in: 1...999_999, using: &random)) / 1_000
      let exponent = Int.random(in: -340...330, using: &random)
      return "\(mantissa)e\(exponent)"
    }
  }

  @Test func parseEqualsTheStandardLibrary() {
    var random = SeededRandom(seed: 64)
    var integers = 0, numbers = 0, rejected = 0
    for text in Self.edges + (0..<40_000).map({ _ in Self.randomNumberText(&random) }) {
      let parsed = UnsafeDecimalParser.parse(text)
      #expect(
        Self.same(parsed, Self.expected(text)),
        "\(text): \(String(describing: parsed)) against \(String(describing: Self.expected(text)))")
      switch parsed {
      case .integer?: integers += 1
      case .number?: numbers += 1
      case nil: rejected += 1
      }
    }
    #expect(integers > 5_000 && numbers > 10_000 && rejected > 2_000)
    // Surrounding spaces and tabs are allowed; inner ones are not.
    #expect(Self.same(UnsafeDecimalParser.parse(" 42\t"), .integer(42)))
    #expect(UnsafeDecimalParser.parse("4 2") == nil)
  }

  @Test func fastPathsEqualTheStandardLibraryWhereTheyAnswer() {
    var random = SeededRandom(seed: 65)
    var plainCovered = 0, integerCovered = 0
    for text in Self.edges + (0..<40_000).map({ _ in Self.randomNumberText(&random) }) {
      let reference = Self.expected(text)
      if let fast = Self.plain(text) {
        plainCovered += 1
        let value: Double? =
          switch reference {
          case .integer(let n)?: Double(n)
          case .number(let x)?: x
          case nil: nil
          }
        // `-0` as an integer cell is 0; as a fraction it keeps its sign, as `Double` does.
        #expect(value?.bitPattern == fast.bitPattern, "plain \(text): \(fast) against \(String(describing: value))")
      }
      if let fast = Self.plainInteger(text) {
        integerCovered += 1
        #expect(reference == .integer(fast), "plainInteger \(text): \(fast) against \(String(describing: reference))")
      } else if case .integer(let value)? = reference, text.utf8.count <= 18, !text.hasPrefix("+") {
        Issue.record("plainInteger declined \(text) (\(value))")
      }
    }
    #expect(plainCovered > 5_000 && integerCovered > 2_000)
  }

  @Test func shortCellsWithAnyBytesConvertExactlyWhenTheyAreIntegers() {
    // Every cell of 1–4 bytes over digits, a sign and bytes just above and below the digits
    // (`/`, `:`, `?`, 0xFA, 0xFF, 0x00: the word path's range and carry checks), followed by
    // bytes that are not the cell's: an integer exactly when it is an optional `-` and digits.
    let alphabet: [UInt8] = Array("0159-/:?.".utf8) + [0xFA, 0xFF, 0x00]
    var cells: [[UInt8]] = [[]]
    var checked = 0
    for _ in 1...4 {
      cells = cells.flatMap { cell in alphabet.map { cell + [$0] } }
      for cell in cells {
        let bytes = cell + Array("7,-12\n".utf8)
        let fast = bytes.withUnsafeBufferPointer { UnsafeDecimalParser.plainInteger($0, 0, cell.count) }
        let digits = cell.first == UInt8(ascii: "-") ? cell.dropFirst() : cell[...]
        let expected: Int64? =
          !digits.isEmpty && digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
          ? Int64(String(decoding: cell, as: UTF8.self)) : nil
        #expect(fast == expected, "\(cell)")
        // With 8 readable bytes from the cell's start (`plainInteger(readable:)`, a run's cells).
        let padded = cell + Array("7,-1234,9\n".utf8)
        let readable = padded.withUnsafeBufferPointer {
          UnsafeDecimalParser.plainInteger(readable: UnsafeRawPointer($0.baseAddress!), $0, 0, cell.count)
        }
        #expect(readable == expected, "\(cell) readable")
        checked += 1
      }
    }
    #expect(checked == 12 + 144 + 1_728 + 20_736)
  }
}
