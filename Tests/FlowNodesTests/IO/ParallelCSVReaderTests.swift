import Foundation
import Testing
@testable import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

/// The parallel, block-wise CSV reader (`UnsafeCSVBlockReader`) against the serial one
/// (`CSVReader.parse`) on random CSVs — quoted fields with commas, escapes and line breaks,
/// nulls, CRLF, blank lines, mixed column types, stray quotes — at 1, 2 and 7 workers and tiny
/// blocks, from memory and from a file, with and without a column projection: the same table,
/// cell for cell, or the same error.
@Suite struct ParallelCSVReaderTests {
  struct ReadFailure: Error, Equatable { let text: String }

  static func randomCSV(_ random: inout SeededRandom, rows: Int, width: Int) -> String {
    // Each column has a flavour, so types are inferred, widened and conflicted.
    let flavours = (0..<width).map { _ in random.pick(0..<7) }
    var text = (0..<width).map { "c\($0)" }.joined(separator: ",") + "\n"
    for row in 0..<rows {
      var cells: [String] = []
      for column in 0..<width {
        let roll = random.pick(0..<20)
        if roll == 0 { cells.append(""); continue }
        if roll == 1 { cells.append("NA"); continue }
        switch flavours[column] {
        case 0: cells.append("\(random.pick(-1_000..<1_000))")
        case 1: cells.append(roll == 2 ? "\(random.pick(0..<100))" : "\(Double(random.pick(-10_000..<10_000)) / 100)")
        case 2: cells.append(random.pick(0..<2) == 0 ? "true" : "false")
        case 3: cells.append(["x", "a,b", "say \"\"hi\"\"", "two\nlines", "é"][random.pick(0..<5)].quotedIfNeeded)
        case 4: cells.append(row > rows / 2 && roll == 3 ? "late text" : "\(random.pick(0..<9))")
        case 5: cells.append(roll == 4 ? "true" : "\(random.pick(0..<9))")
        default: cells.append(["1995-03-15", "1998-09-02", "N", "R"][random.pick(0..<4)])
        }
      }
      text += cells.joined(separator: ",")
      text += random.pick(0..<10) == 0 ? "\r\n" : "\n"
      if random.pick(0..<25) == 0 { text += "\n" }
    }
    return text
  }

  static func serial(_ bytes: [UInt8], columns: Set<String>?) -> Result<Table, ReadFailure> {
    var reader = CSVReader()
    reader.columns = columns
    do { return .success(try bytes.withUnsafeBufferPointer { try reader.parse($0) }) } catch {
      return .failure(ReadFailure(text: "\(error)"))
    }
  }

  /// The parallel read, from memory, or from a file if `folder` is given; the serial read where
  /// the parallel one declines (as `readCSV` does).
  static func parallel(
    _ bytes: [UInt8], columns: Set<String>?, workers: Int, block: Int, file: CheckedFile?, declined: inout Int
  ) -> Result<Table, ReadFailure> {
    var reader = CSVReader()
    reader.columns = columns
    reader.workers = workers
    reader.blockBytesPerWorker = block
    reader.parallelThreshold = 0
    reader.minimumChunkBytes = 1
    do {
      let table =
        try file.map { try UnsafeCSVBlockReader(reader: reader).read($0) }
        ?? bytes.withUnsafeBufferPointer { try UnsafeCSVBlockReader(reader: reader).read($0) }
      if let table { return .success(table) }
      declined += 1
      return .success(try bytes.withUnsafeBufferPointer { try reader.parse($0) })
    } catch {
      return .failure(ReadFailure(text: "\(error)"))
    }
  }

  static func same(_ a: Result<Table, ReadFailure>, _ b: Result<Table, ReadFailure>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)):
      return x.columnNames == y.columnNames && x.rowCount == y.rowCount
        && x.columns.map(\.type) == y.columns.map(\.type)
        && x == y
    case (.failure(let x), .failure(let y)): return x == y
    default: return false
    }
  }

  @Test func parallelReadEqualsSerialReadAtOneTwoAndSevenWorkers() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-parallel-csv-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SeededRandom(seed: 18)
    var compared = 0, declined = 0, declinedPlain = 0
    for round in 0..<60 {
      let width = random.pick(1..<7)
      var text = Self.randomCSV(&random, rows: random.pick(0..<300), width: width)
      if round % 10 == 9 { text = text.replacingOccurrences(of: "x", with: "a\"b") }  // stray quotes
      if round % 15 == 14 { text += "1" + String(repeating: ",1", count: width) + "\n" }  // a ragged row
      let bytes = Array(text.utf8)
      let path = folder + "/t\(round).csv"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try FileAccessPolicy.unrestricted.open(path, relativeTo: folder)
      let projection: Set<String>? =
        round % 3 == 0 ? nil : Set((0..<width).filter { _ in random.pick(0..<2) == 0 }.map { "c\($0)" })
      let expected = Self.serial(bytes, columns: projection)
      for workers in [1, 2, 7] {
        for block in [64, 300, 4_096] {
          let before = declined
          let fromMemory = Self.parallel(
            bytes, columns: projection, workers: workers, block: block, file: nil, declined: &declined)
          let fromFile = Self.parallel(
            bytes, columns: projection, workers: workers, block: block, file: file, declined: &declined)
          if round % 10 != 9 && round % 15 != 14 { declinedPlain += declined - before }
          #expect(Self.same(fromMemory, expected), "round \(round), \(workers) workers, block \(block), memory")
          #expect(Self.same(fromFile, expected), "round \(round), \(workers) workers, block \(block), file")
          compared += 2
        }
      }
    }
    #expect(compared == 60 * 3 * 3 * 2)
    // Plain files (quotes, escapes and line breaks in quotes included) are read in parallel;
    // only those with a stray quote or a ragged row go to the serial reader.
    #expect(declinedPlain == 0)
    #expect(declined > 0)
  }

  @Test func projectionKeepsTheFilesOrderAndIgnoresNamesTheFileLacks() throws {
    var reader = CSVReader()
    reader.columns = ["c", "a"]
    let table = try reader.read(Array("a,b,c\n1,x,2.5\n".utf8))
    #expect(table.columnNames == ["a", "c"])
    #expect(KindHarness.rows(table) == [[.integer(1), .number(2.5)]])
    reader.columns = ["a", "nope"]
    #expect(try reader.read(Array("a,b\n1,2\n".utf8)).columnNames == ["a"])
    reader.columns = []
    let none = try reader.read(Array("a,b\n1,2\n3,4\n".utf8))
    #expect(none.columnCount == 0 && none.rowCount == 2)
  }
}

extension String {
  /// The cell quoted if it holds a comma, quote or line break (its quotes already doubled).
  fileprivate var quotedIfNeeded: String {
    contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"\(self)\"" : self
  }
}

extension SeededRandom {
  /// A value in `range` (not empty).
  fileprivate mutating func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}
