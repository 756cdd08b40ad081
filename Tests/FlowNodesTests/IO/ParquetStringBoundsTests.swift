import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// A string chunk's statistics (`ParquetChunkWriter.bounds`, by `memcmp` over its bytes, or
/// over the dictionary entries its rows use) against the least and greatest valid string of
/// its rows compared byte by byte: flat and dictionary columns, nulls, empty strings, shared
/// prefixes, bytes above 0x7F, and row ranges inside the column.
@Suite struct ParquetStringBoundsTests {
  @Test(arguments: 0..<60) func boundsAreTheLeastAndGreatestBytes(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 77)
    let words = ["", "a", "ab", "abc", "b", "Zürich", "zz", "é", "a\u{0}b", "AIR", "REG AIR", "ab\u{7F}"]
    let count = Int.random(in: 0..<120, using: &random)
    let cells: [String?] = (0..<count).map { _ in
      seed % 3 == 0 && Int.random(in: 0..<4, using: &random) == 0
        ? nil : words[Int.random(in: 0..<words.count, using: &random)]
    }
    let flat = Column.strings(cells)
    guard case .string(let strings) = flat.storage else { return }
    let columns = [flat, Column(.string(strings.dictionaryEncoded()!), validity: flat.validity)]
    let lower = count == 0 ? 0 : Int.random(in: 0..<count, using: &random)
    let rows = lower..<(count == 0 ? 0 : Int.random(in: lower...count, using: &random))
    let valid = rows.compactMap { cells[$0].map { Array($0.utf8) } }
    let expected = valid.min { $0.lexicographicallyPrecedes($1) }.map {
      ($0, valid.max { $0.lexicographicallyPrecedes($1) }!)
    }
    for column in columns {
      let writer = ParquetChunkWriter(
        column: column, rows: rows, name: "s", isOptional: true, codec: .none, allowsDictionary: true, pageVersion: 1)
      let bounds = writer.bounds()
      #expect(bounds?.minimum == expected?.0 && bounds?.maximum == expected?.1, "seed \(seed), rows \(rows)")
    }
  }
}
