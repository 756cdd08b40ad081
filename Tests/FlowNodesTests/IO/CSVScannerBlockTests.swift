import FlowTestSupport
import Testing
@testable import FlowNodes

/// The 64-byte block scan of `UnsafeCSVScanner`: the candidate mask against a byte-at-a-time
/// definition over every byte value, and the scanner against the byte-at-a-time reference on
/// long records (fields across block ends, spaces and controls, bytes above 0x7F) with a comma,
/// a semicolon, a tab and a high byte as the delimiter.
@Suite struct CSVScannerBlockTests {
  @Test func candidateMaskMarksExactlyTheLowBytesAndTheDelimiter() {
    var random = SeededRandom(seed: 64)
    for delimiter: UInt8 in [0x2C, 0x3B, 0x09, 0x22, 0x23, 0x7C, 0x80, 0xFF] {
      for _ in 0..<200 {
        // Bytes near the edges of the test (0x22/0x23, 0x7F/0x80) and the delimiter, often.
        let bytes = (0..<(64 + Int.random(in: 0..<16, using: &random))).map { _ -> UInt8 in
          Int.random(in: 0..<2, using: &random) == 0
            ? [0x00, 0x0A, 0x0D, 0x20, 0x21, 0x22, 0x23, 0x24, 0x7F, 0x80, 0xA2, 0xFF, delimiter][
              Int.random(in: 0..<13, using: &random)]
            : UInt8.random(in: 0...255, using: &random)
        }
        bytes.withUnsafeBytes { raw in
          for offset in 0...(bytes.count - 64) {
            var expected: UInt64 = 0
            for k in 0..<64 where bytes[offset + k] < 0x23 || bytes[offset + k] == delimiter {
              expected |= 1 << UInt64(k)
            }
            let mask = UnsafeCSVScanner.candidateMask(
              raw.baseAddress!, at: offset, UInt64(delimiter) &* UnsafeCSVScanner.ones)
            #expect(mask == expected, "delimiter \(delimiter) at \(offset): \(bytes[offset..<(offset + 64)])")
          }
        }
      }
    }
  }

  /// Random records of long and short fields, with the byte `delimiter` between them.
  static func longRecords(_ random: inout SeededRandom, delimiter: UInt8) -> [UInt8] {
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("12345.67".utf8), Array("x y\tz!#".utf8), [0xC3, 0xA9, 0x80, 0xFF],
      Array("\"q,\"\"\n\"".utf8), Array("a\"b".utf8),
      Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+-*/".utf8),
      [], Array("\r".utf8), Array("1997-06-26".utf8)
    ]
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0..<30, using: &random) {
      let cells = Int.random(in: 1..<20, using: &random)
      for cell in 0..<cells {
        if cell > 0 { bytes.append(delimiter) }
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
      bytes += [[0x0A], [0x0D, 0x0A], [0x0A, 0x0A], []][Int.random(in: 0..<4, using: &random)]
    }
    return bytes
  }

  @Test func longRecordsEqualTheReferenceForEveryDelimiter() {
    var random = SeededRandom(seed: 1864)
    var records = 0
    for delimiter: UInt8 in [0x2C, 0x3B, 0x09, 0xFF] {
      for _ in 0..<300 {
        let bytes = Self.longRecords(&random, delimiter: delimiter)
        let expected = CSVScannerReferenceTests.reference(bytes, delimiter: delimiter)
        for skipFrom in [Int.max, 0, 3] {
          let actual = Self.scanned(bytes, delimiter: delimiter, skipFrom: skipFrom)
          switch (expected, actual) {
          case (.success(let want), .success(let got)):
            #expect(want.count == got.count)
            for (record, scanned) in zip(want, got) {
              #expect(
                scanned.width == record.fields.count && scanned.record.line == record.line
                  && scanned.record.end == record.end)
              #expect(Array(record.fields.prefix(scanned.record.fields.count)) == scanned.record.fields)
              records += 1
            }
          case (.failure(let error), .failure(let got)):
            #expect(error.line == got.line)
          default:
            Issue.record("delimiter \(delimiter) skip \(skipFrom): \(expected) against \(actual)")
          }
        }
      }
    }
    #expect(records > 10_000)
  }

  /// The scanner's records over `bytes` with `delimiter` (as `CSVScannerReferenceTests.scanned`).
  static func scanned(_ bytes: [UInt8], delimiter: UInt8, skipFrom: Int) -> Result<
    [(width: Int, record: CSVScannerReferenceTests.Record)], CSVError
  > {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = UnsafeCSVScanner(buffer, delimiter: delimiter)
      var fields = UnsafeCSVFieldBuffer(capacity: 4)
      defer { fields.deallocate() }
      var records: [(width: Int, record: CSVScannerReferenceTests.Record)] = []
      do {
        while let line = try scanner.nextRecord(into: &fields, skipFrom: skipFrom) {
          let stored = (0..<fields.count).map { index -> CSVScannerReferenceTests.Field in
            let field = fields[index]
            var content: [UInt8] = []
            if field.escaped {
              scanner.unescape(field, into: &content)
            } else {
              content = Array(buffer[field.start..<field.end])
            }
            return CSVScannerReferenceTests.Field(bytes: content, quoted: field.quoted)
          }
          records.append(
            (fields.width, CSVScannerReferenceTests.Record(line: line, fields: stored, end: scanner.position)))
        }
      } catch let error as CSVError {
        return .failure(error)
      } catch {
        return .failure(CSVError(line: -1, "\(error)"))
      }
      return .success(records)
    }
  }
}
