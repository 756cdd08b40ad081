import FlowTestSupport
import Testing
@testable import FlowNodes

/// The structural index (`UnsafeCSVPlainIndex`) through `UnsafeCSVRecordSource`: over random
/// chunks of plain records mixed with quoted ones, carriage returns, blank lines, ragged rows,
/// stray quotes and unterminated last records, the source gives exactly the scanner's records
/// (fields, quoting, widths) and fails exactly where the scanner fails.
@Suite struct CSVPlainIndexTests {
  /// A record's fields as (start, end, quoted, escaped), and its width.
  struct Record: Equatable {
    var width: Int
    var fields: [[Int]]
  }

  /// The records of `bytes` from the source, taken in runs of at most `most` from the index.
  static func records(
    _ bytes: [UInt8], delimiter: UInt8, width: Int, indexes: Bool, skipFrom: Int = .max, most: Int = 1
  )
    -> (records: [Record], failed: Bool, indexed: Int, longestRun: Int)
  {
    bytes.withUnsafeBufferPointer { buffer in
      var source = UnsafeCSVRecordSource(buffer, delimiter: delimiter, width: width, indexes: indexes)
      var fields = UnsafeCSVFieldBuffer(capacity: Swift.max(64, width))
      defer {
        fields.deallocate()
        source.deallocate()
      }
      var records: [Record] = []
      var longestRun = 0
      do {
        // The scanner stores the fields before `skipFrom` only.
        func take(_ fields: UnsafeCSVFieldBuffer) {
          let stored = Swift.min(fields.count, skipFrom)
          records.append(
            Record(
              width: fields.width,
              fields: (0..<stored).map { index in
                let field = fields[index]
                return [field.start, field.end, field.quoted ? 1 : 0, field.escaped ? 1 : 0]
              }))
        }
        loop: while true {
          switch try source.nextBatch(into: &fields, skipFrom: skipFrom, most: most) {
          case .run(let run):
            #expect(run.count >= 1 && run.count <= most && run.width == width)
            longestRun = Swift.max(longestRun, run.count)
            for record in 0..<run.count {
              run.copy(record, into: &fields)
              take(fields)
            }
          case .record: take(fields)
          case .end: break loop
          }
        }
      } catch {
        return (records, true, source.fromIndex, longestRun)
      }
      return (records, false, source.fromIndex, longestRun)
    }
  }

  /// Random records of about `width` fields: mostly plain cells, with quoted cells, carriage
  /// returns, blank lines, ragged rows and stray quotes at the rates given.
  static func chunk(_ random: inout SeededRandom, delimiter: UInt8, width: Int, records: Int, oddity: Int) -> [UInt8] {
    let plain: [[UInt8]] = [
      Array("2013".utf8), Array("7".utf8), [], Array("NA".utf8), Array("-12.5".utf8), Array("N342JB".utf8),
      Array("2013-03-07 22:00:00".utf8), [0xC3, 0xA9, 0x80, 0xFF], Array("x y\t!#".utf8),
      Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+-*/=".utf8)
    ]
    let odd: [[UInt8]] = [
      Array("\"a,b\"".utf8), Array("\"x\"\"y\"".utf8), Array("\"line\nbreak\"".utf8), Array("a\"b".utf8),
      Array("bare\rreturn".utf8), Array("\"\"".utf8), Array("\"unclosed".utf8), Array("\"q\"tail".utf8)
    ]
    var bytes: [UInt8] = []
    for _ in 0..<records {
      var cells = width
      if Int.random(in: 0..<(oddity * 4 + 1), using: &random) == 0 {
        cells += [-1, 1, 2][Int.random(in: 0..<3, using: &random)]
      }
      for cell in 0..<Swift.max(cells, 1) {
        if cell > 0 { bytes.append(delimiter) }
        if Int.random(in: 0..<(oddity * width + 1), using: &random) == 0 {
          bytes += odd[Int.random(in: 0..<odd.count, using: &random)]
        } else {
          bytes += plain[Int.random(in: 0..<plain.count, using: &random)]
        }
      }
      switch Int.random(in: 0..<(oddity * 2 + 4), using: &random) {
      case 0: bytes += [0x0D, 0x0A]
      case 1: bytes += [0x0A, 0x0A]
      case 2: bytes += [0x0A, 0x0D, 0x0A]
      default: bytes.append(0x0A)
      }
    }
    // The last record sometimes ends without a line feed, or with a delimiter.
    switch Int.random(in: 0..<4, using: &random) {
    case 0: if bytes.last == 0x0A { bytes.removeLast() }
    case 1: bytes += [0x31, delimiter]
    default: break
    }
    return bytes
  }

  @Test func sourceGivesTheScannersRecords() {
    var random = SeededRandom(seed: 2611)
    var compared = 0, indexed = 0
    for delimiter: UInt8 in [0x2C, 0x3B, 0x09, 0x7C, 0xFF] {
      for round in 0..<120 {
        let width = Int.random(in: 1...24, using: &random)
        // Small chunks around block ends, and chunks past the index's window (16 KB).
        let records =
          round % 10 == 0 ? Int.random(in: 400...1_200, using: &random) : Int.random(in: 0...40, using: &random)
        let oddity = [0, 3, 20, 200][round % 4]
        let bytes = Self.chunk(&random, delimiter: delimiter, width: width, records: records, oddity: oddity)
        // Runs of at most 1, 2, 7 or any number of records.
        let most = [1, 2, 7, .max][(round / 4) % 4]
        for skipFrom in [Int.max, 1] {
          let expected = Self.records(bytes, delimiter: delimiter, width: width, indexes: false, skipFrom: skipFrom)
          let actual = Self.records(
            bytes, delimiter: delimiter, width: width, indexes: true, skipFrom: skipFrom, most: most)
          #expect(actual.failed == expected.failed, "delimiter \(delimiter) round \(round)")
          #expect(actual.records == expected.records, "delimiter \(delimiter) round \(round) width \(width)")
          #expect(expected.indexed == 0)
          compared += expected.records.count
          indexed += actual.indexed
        }
      }
    }
    // Most records came from the index.
    #expect(compared > 10_000 && indexed * 2 > compared, "\(indexed) of \(compared)")
  }

  @Test func cellsWalkAFieldLikeStartAndEnd() {
    // `UnsafeCSVRecordRun.cells` (the column loops' walk) against `start` and `end`, from every
    // kind of first record, stopping where the body says.
    var random = SeededRandom(seed: 4_127)
    var walked = 0
    for round in 0..<60 {
      let width = Int.random(in: 1...12, using: &random)
      let bytes = Self.chunk(
        &random, delimiter: 0x2C, width: width, records: Int.random(in: 1...600, using: &random),
        oddity: [0, 40][round % 2])
      bytes.withUnsafeBufferPointer { buffer in
        var source = UnsafeCSVRecordSource(buffer, delimiter: 0x2C, width: width, indexes: true)
        var fields = UnsafeCSVFieldBuffer(capacity: Swift.max(64, width))
        defer {
          fields.deallocate()
          source.deallocate()
        }
        while let batch = try? source.nextBatch(into: &fields, skipFrom: .max, most: .max) {
          guard case .run(let run) = batch else {
            if case .end = batch { break }
            continue
          }
          #expect(run.lastEnd == run.end(run.count - 1, width - 1))
          for field in 0..<width {
            for from in Set([0, 1, run.count / 2, run.count].filter { $0 <= run.count }) {
              let stop = Int.random(in: from...run.count, using: &random)
              var seen: [[Int]] = []
              let stopped = run.cells(field, from: from) { record, start, end in
                guard record < stop else { return false }
                seen.append([record, start, end])
                return true
              }
              #expect(stopped == stop, "round \(round) field \(field) from \(from)")
              #expect(
                seen == (from..<stop).map { [$0, run.start($0, field), run.end($0, field)] },
                "round \(round) field \(field) from \(from)")
              walked += seen.count
            }
          }
        }
      }
    }
    #expect(walked > 20_000, "\(walked) cells walked")
  }

  @Test func transposeMovesEachBitAcrossTheDiagonal() {
    var random = SeededRandom(seed: 64)
    for _ in 0..<200 {
      let bits = random.next()
      let transposed = UnsafeCSVPlainIndex.transposed(bits)
      for byte in 0..<8 {
        for bit in 0..<8 {
          #expect((bits >> UInt64(8 * byte + bit)) & 1 == (transposed >> UInt64(8 * bit + byte)) & 1)
        }
      }
    }
  }

  @Test func quotedChunksStayOnTheIndex() {
    // Every record quoted: the index gives them all; the records the scanner's.
    var bytes: [UInt8] = []
    for row in 0..<500 { bytes += Array("\(row),\"name \(row)\",\(row * 3)\n".utf8) }
    let expected = Self.records(bytes, delimiter: 0x2C, width: 3, indexes: false)
    let actual = Self.records(bytes, delimiter: 0x2C, width: 3, indexes: true)
    #expect(actual.records == expected.records && expected.records.count == 500 && !actual.failed)
    #expect(actual.indexed == 500)
  }

  @Test func mostlyIrregularChunksLeaveTheIndex() {
    // Every record ends with CRLF: after a few records the scanner reads alone; the records the same.
    var bytes: [UInt8] = []
    for row in 0..<500 { bytes += Array("\(row),\"name \(row)\",\(row * 3)\r\n".utf8) }
    let expected = Self.records(bytes, delimiter: 0x2C, width: 3, indexes: false)
    let actual = Self.records(bytes, delimiter: 0x2C, width: 3, indexes: true)
    #expect(actual.records == expected.records && expected.records.count == 500 && !actual.failed)
    #expect(actual.indexed == 0)
  }

  @Test func plainChunkIsIndexedWhole() {
    var bytes: [UInt8] = []
    for row in 0..<3_000 { bytes += Array("\(row),x\(row % 7),,\(row * 3)\n\(row % 5 == 0 ? "\n" : "")".utf8) }
    let actual = Self.records(bytes, delimiter: 0x2C, width: 4, indexes: true, most: .max)
    #expect(actual.indexed == 3_000 && actual.records.count == 3_000 && !actual.failed)
    // Runs of many records (the blank lines end them; a window holds ~1,000 records).
    #expect(actual.longestRun >= 4 && actual.longestRun <= 1_000, "longest run \(actual.longestRun)")
    #expect(actual.records == Self.records(bytes, delimiter: 0x2C, width: 4, indexes: false).records)
    #expect(actual.records[2].fields.map { $0[1] - $0[0] } == [1, 2, 0, 1])
  }
}
