import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `groupBy`'s group ids in blocks on several workers (`GroupCodes`) are the serial codes
/// (`ColumnCodes`: first appearance) for every key shape, including one integer column
/// without nulls, whose blocks merge through an `IntegerCodeTable`.
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
}
