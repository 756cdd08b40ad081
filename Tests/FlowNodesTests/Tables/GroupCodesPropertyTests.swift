import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `groupBy`'s group ids in blocks on several workers (`GroupCodes`) are the serial codes
/// (`ColumnCodes`: first appearance) for every key shape, including one integer column
/// without nulls, whose blocks merge through an `IntegerCodeTable`; several dictionary-encoded
/// string keys, coded in one pass over their entries, give the codes of their flat strings.
@Suite struct GroupCodesPropertyTests {
  @Test(arguments: 0..<64)
  func blockCodesAreTheSerialCodes(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 7_000)
    let rows = Int.random(in: 0..<2_000, using: &random)
    let distinct = Int64([1, 3, 40, 200, 5_000][Int(seed) % 5])
    let withNulls = seed % 4 == 3
    let integers: [Int64?] = (0..<rows).map { _ in
      withNulls && Int.random(in: 0..<9, using: &random) == 0
        ? nil : Int64.random(in: -distinct..<distinct, using: &random) &* 1_000_003
    }
    var keyColumns = [Column.integers(integers)]
    if seed % 6 == 5 {
      keyColumns.append(.strings((0..<rows).map { _ in ["a", "b", "é"][Int.random(in: 0..<3, using: &random)] }))
    }
    let expected = ColumnCodes.codes(of: keyColumns, rowCount: rows)
    for workers in [2, 3, 8] {
      let blockRows = [7, 64, 300][Int.random(in: 0..<3, using: &random)]
      let codes = GroupCodes.codes(of: keyColumns, rowCount: rows, workers: workers, blockRows: blockRows)
      #expect(codes.codes == expected.codes, "seed \(seed), \(workers) workers, blocks of \(blockRows)")
      #expect(codes.cardinality == expected.cardinality)
    }
  }

  @Test(arguments: 0..<40)
  func dictionaryKeysGiveTheCodesOfTheirStrings(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 8_000)
    let rows = Int.random(in: 0..<1_500, using: &random)
    let words = ["A", "N", "R", "", "é", "F", "O", "long key"]
    let widths = (0..<Int.random(in: 2...3, using: &random)).map { _ in Int.random(in: 1...words.count, using: &random)
    }
    let cells = widths.map { width in (0..<rows).map { _ in words[Int.random(in: 0..<width, using: &random)] } }
    let flat = cells.map { Column.strings($0) }
    var encoded = flat.map { column -> Column in
      guard case .string(let strings) = column.storage else { return column }
      return Column(.string(strings.dictionaryEncoded()!), validity: column.validity)
    }
    #expect(encoded.allSatisfy { $0.isDictionaryEncoded })
    // Keep the expected codes honest: the flat strings, coded column by column.
    let expected = ColumnCodes.codes(of: flat, rowCount: rows)
    let coded = ColumnCodes.codes(of: encoded, rowCount: rows)
    #expect(coded.codes == expected.codes, "seed \(seed)")
    #expect(coded.cardinality == expected.cardinality)
    // A null in a key: the general path, the same codes as the flat strings with that null.
    if rows > 0 {
      let row = Int.random(in: 0..<rows, using: &random)
      let withNull = Column.strings((0..<rows).map { $0 == row ? nil : cells[0][$0] })
      guard case .string(let strings) = withNull.storage else { return }
      encoded[0] = Column(.string(strings.dictionaryEncoded()!), validity: withNull.validity)
      #expect(
        ColumnCodes.codes(of: encoded, rowCount: rows).codes
          == ColumnCodes.codes(of: [withNull] + flat.dropFirst(), rowCount: rows).codes)
    }
  }
}
