import Foundation
import FlowTestSupport
import Testing
@testable import FlowNodes

/// `UnsafeParquetBytes` against simple references: bit-unpacking every width 1…32 at every
/// starting byte and count (the last values near the end of the bytes read byte by byte), and
/// `PLAIN` integers and floats of 4 and 8 bytes, appended after values already there; dates'
/// digits against `String(format:)`.
@Suite struct ParquetBytesTests {
  /// Value `index` of `bitWidth` bits packed from `start`, one bit at a time.
  static func unpacked(_ bytes: [UInt8], _ start: Int, _ index: Int, _ bitWidth: Int) -> UInt32 {
    var value: UInt32 = 0
    for bit in 0..<bitWidth {
      let at = index * bitWidth + bit
      value |= UInt32(bytes[start + at / 8] >> (at % 8) & 1) << bit
    }
    return value
  }

  @Test(arguments: 1...32) func bitUnpackingMatchesOneBitAtATime(bitWidth: Int) throws {
    var random = SeededRandom(seed: UInt64(bitWidth))
    for _ in 0..<20 {
      let count = Int(random.next() % 70)
      let start = Int(random.next() % 5)
      let needed = (count * bitWidth + 7) / 8
      // One bit-packed run of ⌈count / 8⌉ groups after `start` other bytes; sometimes exactly
      // the bytes the values need (every last load is short), sometimes more.
      var page = (0..<start).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      var header = UInt64((count + 7) / 8) << 1 | 1
      while header >= 0x80 {
        page.append(UInt8(header & 0x7F | 0x80))
        header >>= 7
      }
      page.append(UInt8(header))
      let first = page.count
      page += (0..<needed + Int(random.next() % 3) * Int(random.next() % 9)).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
      var runs = try ParquetRLEDecoder(page, from: start, to: page.count, bitWidth: bitWidth, what: "values")
      var output: [UInt32] = [7, 8]
      try runs.decode(count, into: &output)
      let expected = [7, 8] + (0..<count).map { Self.unpacked(page, first, $0, bitWidth) }
      #expect(output == expected, "width \(bitWidth), count \(count), start \(start), \(page.count) bytes")
    }
  }

  @Test(arguments: 0..<8) func plainNumbersMatchTheirLittleEndianBytes(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    let count = Int(random.next() % 50)
    let start = Int(random.next() % 7)
    let width = seed % 2 == 0 ? 4 : 8
    let bytes = (0..<start + count * width + Int(random.next() % 3)).map { _ in UInt8(truncatingIfNeeded: random.next())
    }
    var integers: [Int64] = [-1]
    var doubles: [Double] = [0.5]
    UnsafeParquetBytes.appendIntegers(count, width: width, from: bytes, at: start, to: &integers)
    UnsafeParquetBytes.appendDoubles(count, width: width, from: bytes, at: start, to: &doubles)
    #expect(integers.count == count + 1 && doubles.count == count + 1)
    for index in 0..<count {
      let raw = ParquetValues.littleEndian(bytes, start + index * width, width)
      let integer = width == 4 ? Int64(Int32(bitPattern: UInt32(raw))) : Int64(bitPattern: raw)
      let double = width == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
      #expect(integers[index + 1] == integer)
      #expect(doubles[index + 1].bitPattern == double.bitPattern || (doubles[index + 1].isNaN && double.isNaN))
    }
  }

  @Test func datesHaveTheirDigitsPaddedToWidth() {
    var random = SeededRandom(seed: 12)
    let days =
      [0, -1, 10_956, -719_162, -719_528, 2_932_896, 2_932_897]
      + (0..<300).map { _ in
        Int.random(in: -1_000_000...4_000_000, using: &random)
      }
    for day in days {
      let date = ISODate.civil(fromDay: day)
      let expected =
        (date.year < 0 ? "-" : "") + String(format: "%04d-%02d-%02d", abs(date.year), date.month, date.day)
      var bytes: [UInt8] = [65]
      ParquetTimeText.appendDate(day, to: &bytes)
      #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == expected, "day \(day)")
    }
  }

  /// A row group's date dictionary as text once per entry: the same texts as one date at a
  /// time, and no such shortcut for repeated days (a dictionary column's entries are distinct)
  /// or days too far apart for a bit per day.
  @Test(arguments: 0..<12) func aDateDictionaryIsFormattedOncePerDistinctDay(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 77)
    let low = Int64.random(in: -800_000...3_000_000, using: &random)
    let count = Int.random(in: 1...3_000, using: &random)
    var days = Array(Set((0..<count).map { _ in low + Int64.random(in: 0..<Int64(count) * 3, using: &random) }))
    days.shuffle(using: &random)
    guard let text = ParquetColumnConversion.dates(days) else {
      Issue.record("seed \(seed): distinct days within their span")
      return
    }
    #expect(text.count == days.count)
    for (index, day) in days.enumerated() {
      var bytes: [UInt8] = []
      ParquetTimeText.appendDate(Int(day), to: &bytes)
      #expect(Array(text.utf8(index)) == bytes, "seed \(seed), day \(day)")
    }
    #expect(ParquetColumnConversion.dates(days + [days[Int(seed) % days.count]]) == nil)
    #expect(ParquetColumnConversion.dates([0, 1_000_000]) == nil)
    #expect(ParquetColumnConversion.dates([]) == nil)
  }
}
