import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `GroupRows` (a morsel's rows listed by group) against a filter per group, and the sums that
/// read it (`BlockSums.addGrouped`, `GroupByStream.add(_:codes:grouped:workers:)`) against
/// the same sums over the listed rows gathered: random codes, selections, columns with
/// specials and values near the largest double, random small blocks, give the same bits.
@Suite struct GroupRowsTests {
  static func selection(_ random: inout SeededRandom, rows: Int) -> [Int32]? {
    guard Int.random(in: 0..<4, using: &random) != 0 else { return nil }
    let keep = Int.random(in: 0...4, using: &random)
    return (0..<Int32(rows)).filter { _ in Int.random(in: 0...4, using: &random) < keep }
  }

  @Test func eachGroupsRowsAreItsSelectedRowsInOrder() {
    var random = SeededRandom(seed: 4_241)
    for _ in 0..<400 {
      let rows = Int.random(in: 0...300, using: &random)
      let groupCount = Int.random(in: 1...12, using: &random)
      // Runs of one group, as a morsel's keys often come.
      var codes: [Int32] = []
      while codes.count < rows {
        let code = Int32.random(in: 0..<Int32(groupCount), using: &random)
        codes += repeatElement(code, count: min(rows - codes.count, Int.random(in: 1...9, using: &random)))
      }
      let selection = Self.selection(&random, rows: rows)
      let grouped = GroupRows(codes: codes, groupCount: groupCount, selection: selection)
      let listed = selection ?? (0..<Int32(rows)).map { $0 }
      #expect(grouped.count == listed.count)
      #expect(grouped.groupCount == groupCount)
      for index in listed.indices { #expect(grouped.tableRow(index) == Int(listed[index])) }
      for group in 0..<groupCount {
        let expected = listed.filter { codes[Int($0)] == Int32(group) }
        #expect(Array(grouped.rows[grouped.starts[group]..<grouped.starts[group + 1]]) == expected)
        let low = Int.random(in: 0...rows, using: &random), high = Int.random(in: low...rows, using: &random)
        let positions = grouped.positions(of: group, in: low..<high)
        #expect(Array(grouped.rows[positions]) == expected.filter { low <= $0 && $0 < high })
      }
      // A span of listed rows in row order covers the table rows from its first to the next listed one.
      let first = Int.random(in: 0...listed.count, using: &random)
      let last = Int.random(in: first...listed.count, using: &random)
      let span = grouped.tableRows(of: first..<last)
      let covered = (0..<groupCount).flatMap { Array(grouped.rows[grouped.positions(of: $0, in: span)]) }.sorted()
      #expect(covered == Array(listed[first..<last]))
    }
  }

  @Test func groupedSumsAreTheGatheredRowsSumsBitForBit() {
    var random = SeededRandom(seed: 919)
    for _ in 0..<300 {
      let rows = Int.random(in: 0...300, using: &random)
      // Few groups (tiles of at least 64 rows per group), sometimes one.
      let localCount = Int.random(in: 1...2, using: &random)
      let groupCount = Int.random(in: localCount...12, using: &random)
      let blockRows = Int.random(in: 1...64, using: &random)
      let width = Int.random(in: 1...7, using: &random)
      // Also small integers, whose sums may be taken exactly (`addExactly`), now and then one
      // near 2^52 (then they may not).
      let columns = (0..<width).map { _ in
        guard Bool.random(using: &random) else { return FusedBlockSumsTests.column(&random, rows: rows) }
        let big = Int.random(in: 0..<4, using: &random) == 0
        return Column(
          .integer(
            (0..<rows).map { _ in
              big && Int.random(in: 0..<50, using: &random) == 0
                ? Int64.random(in: -(1 << 52)...(1 << 52), using: &random)
                : Int64.random(in: -1_000...1_000, using: &random)
            }))
      }
      let codes = (0..<rows).map { _ in Int32.random(in: 0..<Int32(localCount), using: &random) }
      // Distinct groups of the whole (a morsel's groups have distinct keys).
      let map = Array((0..<Int32(groupCount)).shuffled(using: &random).prefix(localCount))
      let selection = Self.selection(&random, rows: rows)
      let listed = selection ?? (0..<Int32(rows)).map { $0 }
      let grouped = GroupRows(codes: codes, groupCount: localCount, selection: selection)
      // The reference: the listed rows gathered, each column alone.
      let gatheredColumns = columns.map { $0.gathering(listed) }
      let gatheredCodes = listed.map { codes[Int($0)] }
      var byGroup = [BlockSums](repeating: BlockSums(blockRows: blockRows), count: width)
      for index in 0..<width { byGroup[index].grow(to: groupCount) }
      var alone = byGroup
      var start = 0
      while start < listed.count {
        let block = start / blockRows
        let end = min(listed.count, start + Int.random(in: 1...blockRows, using: &random), (block + 1) * blockRows)
        BlockSums.addGrouped(
          &byGroup, columns, grouped: grouped,
          tableRows: grouped.tableRows(of: start..<end), map: map, block: block,
          tileRows: Int.random(in: 1...100, using: &random))
        for index in 0..<width {
          alone[index].add(gatheredColumns[index], rows: start..<end, groups: gatheredCodes, map: map, block: block)
        }
        start = end
      }
      for index in 0..<width {
        for mean in [false, true] {
          #expect(
            FusedBlockSumsTests.bits(byGroup[index].column(mean: mean))
              == FusedBlockSumsTests.bits(alone[index].column(mean: mean)),
            "rows \(rows), groups \(groupCount), blocks of \(blockRows), column \(index) of \(width)")
        }
        #expect(byGroup[index].seen == alone[index].seen)
      }
    }
  }

  /// `5.806782469259191e307 + -greatestFiniteMagnitude` is finite, but the two-sum's
  /// `next - sum` overflows: each vector width gives way to Neumaier's step for that group.
  @Test func anOverflowingTwoSumGivesNeumaiersBitsInEveryWidth() {
    for width in 1...5 {
      for lane in 0..<width {
        var columns = (0..<width).map { _ in Column(.number([0.1, 0.2, 0.3])) }
        columns[lane] = Column(.number([5.806782469259191e307, -.greatestFiniteMagnitude, 1]))
        let grouped = GroupRows(codes: [0, 0, 0], groupCount: 1, selection: nil)
        var byGroup = [BlockSums](repeating: BlockSums(blockRows: 8), count: width)
        for index in 0..<width { byGroup[index].grow(to: 1) }
        var alone = byGroup
        BlockSums.addGrouped(&byGroup, columns, grouped: grouped, tableRows: 0..<3, map: [0], block: 0)
        for index in 0..<width { alone[index].add(columns[index], rows: 0..<3, groups: [0, 0, 0], map: nil, block: 0) }
        #expect(byGroup[lane].column(mean: false).number(at: 0)!.isFinite)
        for index in 0..<width {
          #expect(
            FusedBlockSumsTests.bits(byGroup[index].column(mean: false))
              == FusedBlockSumsTests.bits(alone[index].column(mean: false)), "width \(width), lane \(lane)")
        }
      }
    }
  }

  /// A streamed `groupBy` given its morsels' rows by group (a filter's kept rows, or all)
  /// gives the table it gives for the kept rows gathered: groups in order of first
  /// appearance, counts, exact integer sums (or the same failure past Int64) and sums.
  @Test func aStreamOfListedRowsIsTheStreamOfTheRowsGathered() throws {
    let aggregateTexts = [
      "count()", "sum(small)", "sum(big)", "sum(real)", "mean(real)", "mean(small)", "mean(big)", "sum(flag)"
    ]
    for seed in 0..<UInt64(120) {
      var random = SeededRandom(seed: seed &* 7_717 &+ 5)
      // Mostly without nulls (the sums by group); some with (gathered, then `add`).
      let table = try GroupByStreamTests.table(
        &random, rows: Int.random(in: 1...900, using: &random), nulls: seed % 4 == 0)
      let by = [[], ["key"], ["code"], ["key", "code"], ["real"]][Int.random(in: 0..<5, using: &random)]
      var aggregates: [Aggregate] = []
      for (index, text) in aggregateTexts.enumerated() where Int.random(in: 0..<3, using: &random) != 0 {
        aggregates.append(try Aggregate.parse(output: "a\(index)", text).get())
      }
      if aggregates.isEmpty { aggregates.append(try Aggregate.parse(output: "n", "count()").get()) }
      let blockRows = Int.random(in: 1...200, using: &random)
      var listed = GroupByStream(keys: by, aggregates: aggregates, blockRows: blockRows)
      var gathered = listed
      var start = 0
      var failed = (listed: false, gathered: false)
      while start < table.rowCount {
        let end = min(table.rowCount, start + Int.random(in: 1...300, using: &random))
        let morsel = table.slice(start..<end)
        let selection = Self.selection(&random, rows: morsel.rowCount)
        let codes = try GroupByStream.codes(of: morsel, keys: by, workers: 1, blockRows: blockRows)
        let grouped = GroupRows(codes: codes.local, groupCount: codes.count, selection: selection)
        do { try listed.add(morsel, codes: codes, grouped: grouped, workers: 1) } catch { failed.listed = true }
        do { try gathered.add(selection.map { morsel.gathering($0, workers: 1) } ?? morsel, workers: 1) } catch {
          failed.gathered = true
        }
        start = end
      }
      #expect(failed.listed == failed.gathered, "seed \(seed)")
      let expected = try? gathered.result(), result = try? listed.result()
      #expect((expected == nil) == (result == nil), "seed \(seed)")
      guard let expected, let result else { continue }
      #expect(result.columnNames == expected.columnNames)
      #expect(result.rowCount == expected.rowCount, "seed \(seed) by \(by)")
      for column in 0..<min(result.columnCount, expected.columnCount) {
        for row in 0..<min(result.rowCount, expected.rowCount) {
          let a = result.cell(row: row, column: column), b = expected.cell(row: row, column: column)
          #expect(GroupByStreamTests.bitEqual(a, b), "seed \(seed) by \(by) \(result.columnNames[column]) row \(row)")
        }
      }
    }
  }
}
