import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `BlockSums.add` of several columns in one pass (the streamed `groupBy`'s fused sums)
/// against `add` of each column alone: random number and integer columns without nulls
/// (specials, sums that cancel), random groups with and without a map, random segments over
/// random small blocks, give the same sums, errors and counts bit for bit — also where the
/// paired loop's two-sum overflows and the one-column loop takes over.
@Suite struct FusedBlockSumsTests {
  static func column(_ random: inout SeededRandom, rows: Int) -> Column {
    if Bool.random(using: &random) {
      let integers = (0..<rows).map { _ in Int64.random(in: -(1 << 60)...(1 << 60), using: &random) }
      return Column(.integer(integers))
    }
    let specials: [Double] = [
      0.0, -0.0, .nan, .infinity, 1e16, -1e16, 0.1, 2.3, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 6e307,
      -6e307
    ]
    let numbers = (0..<rows).map { _ -> Double in
      switch Int.random(in: 0..<4, using: &random) {
      case 0: specials[Int.random(in: 0..<specials.count, using: &random)]
      case 1: Bool.random(using: &random) ? 1e16 : -1e16
      default: Double.random(in: -1e6...1e6, using: &random)
      }
    }
    return Column(.number(numbers))
  }

  static func bits(_ column: Column) -> [UInt64?] {
    (0..<column.count).map { column.isNull($0) ? nil : column.number(at: $0)!.bitPattern }
  }

  @Test func fusedSumsAreEachColumnsOwnBitForBit() {
    var random = SeededRandom(seed: 77)
    for _ in 0..<300 {
      let rows = Int.random(in: 0...300, using: &random)
      let groupCount = Int.random(in: 1...9, using: &random)
      let blockRows = Int.random(in: 1...64, using: &random)
      let width = Int.random(in: 2...6, using: &random)
      let columns = (0..<width).map { _ in Self.column(&random, rows: rows) }
      // Local groups mapped to global ones, or global ones directly.
      let mapped = Bool.random(using: &random)
      let localCount = Int.random(in: 1...groupCount, using: &random)
      let map: [Int32]? =
        mapped ? (0..<localCount).map { _ in Int32.random(in: 0..<Int32(groupCount), using: &random) } : nil
      let groups = (0..<rows).map { _ in Int32.random(in: 0..<Int32(mapped ? localCount : groupCount), using: &random) }
      var fused = [BlockSums](repeating: BlockSums(blockRows: blockRows), count: width)
      var alone = fused
      for index in 0..<width {
        fused[index].grow(to: groupCount)
        alone[index].grow(to: groupCount)
      }
      // Segments cut at the blocks' boundaries, as a stream of morsels gives them.
      var start = 0
      while start < rows {
        let block = start / blockRows
        let end = min(rows, start + Int.random(in: 1...blockRows, using: &random), (block + 1) * blockRows)
        BlockSums.add(&fused, columns, rows: start..<end, groups: groups, map: map, block: block)
        for index in 0..<width {
          alone[index].add(columns[index], rows: start..<end, groups: groups, map: map, block: block)
        }
        start = end
      }
      for index in 0..<width {
        for mean in [false, true] {
          #expect(
            Self.bits(fused[index].column(mean: mean)) == Self.bits(alone[index].column(mean: mean)),
            "rows \(rows), groups \(groupCount), blocks of \(blockRows), column \(index)")
        }
        #expect(fused[index].seen == alone[index].seen)
      }
    }
  }

  /// `5.806782469259191e307 + -greatestFiniteMagnitude` is finite, but the two-sum's `next - sum` overflows:
  /// the paired loop must give way to the one-column loop, whose sum stays finite and exact.
  @Test func anOverflowingTwoSumGivesTheOneColumnLoopsBits() {
    let columns = [
      Column(.number([5.806782469259191e307, -.greatestFiniteMagnitude, 1])), Column(.number([0.1, 0.2, 0.3])),
      Column(.number([2.3, 2.3, 2.3]))
    ]
    let groups: [Int32] = [0, 0, 0]
    var fused = [BlockSums](repeating: BlockSums(blockRows: 8), count: 3)
    var alone = fused
    for index in 0..<3 {
      fused[index].grow(to: 1)
      alone[index].grow(to: 1)
    }
    BlockSums.add(&fused, columns, rows: 0..<3, groups: groups, map: nil, block: 0)
    for index in 0..<3 { alone[index].add(columns[index], rows: 0..<3, groups: groups, map: nil, block: 0) }
    let first = fused[0].column(mean: false).number(at: 0)!
    #expect(first.isFinite)
    for index in 0..<3 {
      #expect(Self.bits(fused[index].column(mean: false)) == Self.bits(alone[index].column(mean: false)))
    }
  }
}
