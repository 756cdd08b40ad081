import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The word-at-a-time scanner (`UnsafeCSVScanner`) against a byte-at-a-time RFC 4180 reference
/// on random CSV text — quotes, doubled quotes, commas and line breaks inside quotes, stray
/// quotes, CR, LF and CRLF ends, blank lines, empty fields, `NA`, a byte order mark,
/// multi-byte UTF-8 — with and without skipped trailing fields; and the block reader's record
/// boundaries at every cut of a small file.
@Suite struct CSVScannerReferenceTests {
  struct Field: Equatable {
    var bytes: [UInt8]
    var quoted: Bool
  }

  struct Record: Equatable {
    var line: Int
    var fields: [Field]
    /// Where the next record's search starts (past this record's line end).
    var end: Int
  }

  /// The records of `bytes` read one byte at a time, or the line of the first error.
  static func reference(_ bytes: [UInt8], delimiter: UInt8 = 0x2C) -> Result<[Record], CSVError> {
    let quote: UInt8 = 0x22, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
    let n = bytes.count
    var i = n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    var line = 1
    var records: [Record] = []
    func endsLine(_ at: Int) -> Bool { bytes[at] == lf || (bytes[at] == cr && at + 1 < n && bytes[at + 1] == lf) }
    while true {
      while i < n {
        if bytes[i] == lf { i += 1; line += 1; continue }
        if bytes[i] == cr && i + 1 < n && bytes[i + 1] == lf { i += 2; line += 1; continue }
        break
      }
      if i >= n { return .success(records) }
      let start = line
      var fields: [Field] = []
      while true {
        if i < n && bytes[i] == quote {
          let fieldLine = line
          i += 1
          var content: [UInt8] = []
          while true {
            guard i < n else { return .failure(CSVError(line: fieldLine, "a quoted field is not closed")) }
            if bytes[i] == quote {
              if i + 1 < n && bytes[i + 1] == quote { content.append(quote); i += 2; continue }
              break
            }
            if bytes[i] == lf { line += 1 }
            content.append(bytes[i])
            i += 1
          }
          i += 1
          fields.append(Field(bytes: content, quoted: true))
          if i < n && bytes[i] != delimiter && !endsLine(i) {
            return .failure(CSVError(line: line, "unexpected text after a closing quote (field \(fields.count))"))
          }
        } else {
          var content: [UInt8] = []
          while i < n && bytes[i] != delimiter && !endsLine(i) {
            content.append(bytes[i])
            i += 1
          }
          fields.append(Field(bytes: content, quoted: false))
        }
        if i >= n { break }
        if bytes[i] == delimiter {
          i += 1
          if i >= n { fields.append(Field(bytes: [], quoted: false)); break }
          continue
        }
        i += bytes[i] == cr ? 2 : 1
        line += 1
        break
      }
      records.append(Record(line: start, fields: fields, end: i))
    }
  }

  /// The scanner's records over the whole of `bytes`, storing fields up to `skipFrom`: each
  /// record's width and the fields it stored.
  static func scanned(_ bytes: [UInt8], skipFrom: Int) -> Result<[(width: Int, record: Record)], CSVError> {
    bytes.withUnsafeBufferPointer { buffer in
      var scanner = UnsafeCSVScanner(buffer, delimiter: 0x2C)
      var fields = UnsafeCSVFieldBuffer(capacity: 4)
      defer { fields.deallocate() }
      var records: [(width: Int, record: Record)] = []
      do {
        while let line = try scanner.nextRecord(into: &fields, skipFrom: skipFrom) {
          var stored: [Field] = []
          for index in 0..<fields.count {
            let field = fields[index]
            var content: [UInt8] = []
            if field.escaped {
              scanner.unescape(field, into: &content)
            } else {
              content = Array(buffer[field.start..<field.end])
            }
            stored.append(Field(bytes: content, quoted: field.quoted))
          }
          records.append((fields.width, Record(line: line, fields: stored, end: scanner.position)))
        }
      } catch let error as CSVError {
        return .failure(error)
      } catch {
        return .failure(CSVError(line: -1, "\(error)"))
      }
      return .success(records)
    }
  }

  static let pieces: [String] = [
    "a", "12", "-3.5", "NA", "", "é", "日本", "x y", "\"q\"", "\"a,b\"", "\"say \"\"hi\"\"\"",
    "\"two\nlines\"", "\"cr\r\nlf\"", "\"\"", "a\"b", "\r", "1e5", "abcdefghijklmnop", "\"é,\"\"\""
  ]

  /// Random CSV-like text: mostly well formed, sometimes not (stray quotes, text after a
  /// closing quote, an unclosed quote), with every line ending and an optional BOM.
  static func randomText(_ random: inout SeededRandom) -> [UInt8] {
    var text = random.pick(0..<6) == 0 ? "\u{FEFF}" : ""
    let rows = random.pick(0..<12), width = random.pick(1..<6)
    for _ in 0..<rows {
      let cells = (0..<(random.pick(0..<8) == 0 ? random.pick(1..<8) : width)).map { _ in
        pieces[random.pick(0..<pieces.count)]
      }
      text += cells.joined(separator: ",")
      text += ["\n", "\r\n", "\n\n", "\r\n\r\n", ""][random.pick(0..<5)]
    }
    var bytes = Array(text.utf8)
    if random.pick(0..<8) == 0 && !bytes.isEmpty {
      // A random byte from the CSV alphabet somewhere (malformed text, usually).
      bytes.insert([0x22, 0x2C, 0x0A, 0x0D, 0x61][random.pick(0..<5)], at: random.pick(0..<bytes.count))
    }
    return bytes
  }

  @Test func scannerEqualsByteAtATimeReference() {
    var random = SeededRandom(seed: 4180)
    var compared = 0, failures = 0
    for _ in 0..<3_000 {
      let bytes = Self.randomText(&random)
      let expected = Self.reference(bytes)
      for skipFrom in [Int.max, 0, 1, 2] {
        let actual = Self.scanned(bytes, skipFrom: skipFrom)
        switch (expected, actual) {
        case (.success(let records), .success(let scanned)):
          #expect(records.count == scanned.count, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
          for (record, got) in zip(records, scanned) {
            #expect(got.width == record.fields.count && got.record.line == record.line && got.record.end == record.end)
            // Fields before `skipFrom` are stored; later ones only if a quote made the scanner
            // read them one by one.
            #expect(got.record.fields.count >= Swift.min(skipFrom, record.fields.count))
            #expect(
              Array(record.fields.prefix(got.record.fields.count)) == got.record.fields,
              "\(String(decoding: bytes, as: UTF8.self).debugDescription) skip \(skipFrom)")
          }
        case (.failure(let error), .failure(let got)):
          failures += 1
          #expect(error.line == got.line, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        case (.success, .failure), (.failure, .success):
          // Skipped fields hold no quote (the scanner reads the rest one by one at a quote), so
          // skipping never hides an error.
          Issue.record(
            "\(String(decoding: bytes, as: UTF8.self).debugDescription) skip \(skipFrom): \(expected) against \(actual)"
          )
        }
        compared += 1
      }
    }
    #expect(compared == 12_000)
    #expect(failures > 100)
  }

  @Test func wordCountsEqualByteCountsAtEveryOffset() {
    var random = SeededRandom(seed: 8)
    for _ in 0..<50 {
      let bytes = (0..<random.pick(0..<40)).map { _ in [0x0A, 0x22, 0x2C, 0x61, 0xC3, 0xA9][random.pick(0..<6)] as UInt8
      }
      bytes.withUnsafeBufferPointer { buffer in
        for start in 0...bytes.count {
          for end in start...bytes.count {
            for byte: UInt8 in [0x0A, 0x22] {
              let naive = bytes[start..<end].filter { $0 == byte }.count
              #expect(UnsafeCSVScanner.count(byte, in: buffer, from: start, to: end) == naive)
            }
          }
          #expect(UnsafeCSVScanner.lineBreaks(in: buffer, from: start) == bytes[start...].filter { $0 == 0x0A }.count)
        }
      }
    }
  }

  /// The vector count sums its per-lane counters every 255 rounds of 16 bytes: buffers of
  /// every byte the counted one (each lane at its limit) and random ones, longer than a round
  /// (4,080 bytes), at random ends.
  @Test func vectorCountsSurviveTheLaneLimit() {
    var random = SeededRandom(seed: 81)
    for round in 0..<40 {
      let length = random.pick(4_000..<20_000)
      let bytes: [UInt8] =
        round % 4 == 0
        ? [UInt8](repeating: 0x0A, count: length)
        : (0..<length).map { _ in random.pick(0..<3) == 0 ? 0x0A : 0x61 }
      bytes.withUnsafeBufferPointer { buffer in
        for _ in 0..<5 {
          let start = random.pick(0..<40), end = random.pick(start..<length + 1)
          #expect(
            UnsafeCSVScanner.count(0x0A, in: buffer, from: start, to: end)
              == bytes[start..<end].filter { $0 == 0x0A }.count)
        }
        #expect(UnsafeCSVScanner.lineBreaks(in: buffer, from: 0) == bytes.filter { $0 == 0x0A }.count)
      }
    }
  }

  /// Well-formed records (quoted cells with commas, escapes, line breaks; `NA`; empty cells;
  /// UTF-8), `width` fields each.
  static func wellFormed(_ random: inout SeededRandom, rows: Int, width: Int) -> [UInt8] {
    let cells = [
      "a", "12", "NA", "", "é", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"cr\r\nlf\"", "日本", "-0.5"
    ]
    var text = ""
    for _ in 0..<rows {
      text += (0..<width).map { _ in cells[random.pick(0..<cells.count)] }.joined(separator: ",")
      text += ["\n", "\r\n", "\n\n"][random.pick(0..<3)]
    }
    return Array(text.utf8)
  }

  @Test func blockBoundariesAtEveryCutMatchTheReference() {
    var random = SeededRandom(seed: 77)
    var cuts = 0
    for round in 0..<24 {
      let width = random.pick(1..<4)
      let bytes = Self.wellFormed(&random, rows: random.pick(1..<14), width: width)
      guard case .success(let records) = Self.reference(bytes) else {
        Issue.record("well-formed text must read")
        continue
      }
      // Where each record ends in the reference (its line end's last byte + 1).
      var ends: [Int] = []
      var inQuotes = false
      for (index, byte) in bytes.enumerated() {
        if byte == 0x22 { inQuotes.toggle() }
        if byte == 0x0A && !inQuotes { ends.append(index + 1) }
      }
      var reader = CSVReader()
      reader.workers = 1 + round % 3
      reader.minimumChunkBytes = 1
      let nulls = CSVNullTest(reader.nullTokens)
      bytes.withUnsafeBufferPointer { buffer in
        for cut in 0...bytes.count {
          let block = UnsafeBufferPointer(rebasing: buffer[0..<cut])
          let isLast = cut == bytes.count
          guard
            let (chunks, consumed) = UnsafeCSVBlockReader(reader: reader).parse(
              block, isLast: isLast, width: width, kept: Array(0..<width), textOnly: true, bytesPerRow: 0)
          else {
            Issue.record("round \(round), cut \(cut): declined")
            continue
          }
          let expectedEnd = isLast ? cut : (ends.last { $0 <= cut } ?? 0)
          #expect(consumed == expectedEnd, "round \(round), cut \(cut)")
          // The records the block holds, cell for cell, as text with nulls.
          let lines = records.filter { $0.end <= consumed }
          #expect(chunks.reduce(0) { $0 + $1.rows } == lines.count, "round \(round), cut \(cut)")
          for column in 0..<width {
            var cells: [[UInt8]?] = []
            for chunk in chunks {
              guard case .string(let strings, let nullRows) = chunk.pieces[column] else {
                if case .untyped(let count) = chunk.pieces[column] { cells += Array(repeating: nil, count: count) }
                continue
              }
              for row in 0..<strings.count {
                cells.append(nullRows.contains(Int32(row)) ? nil : Array(strings.utf8(row)))
              }
            }
            let expected: [[UInt8]?] = lines.map { record in
              let field = record.fields[column]
              let isNull = !field.quoted && nulls.tokens.contains(field.bytes)
              return isNull ? nil : field.bytes
            }
            #expect(cells == expected, "round \(round), cut \(cut), column \(column)")
          }
          cuts += 1
        }
      }
    }
    #expect(cuts > 1_000)
  }
}

extension SeededRandom {
  /// A value in `range` (not empty).
  fileprivate mutating func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}
