import FlowRuntime

/// `groupBy` over a table handed in morsels (`StreamedChain`): the same table as
/// `GroupByNode` gives on the morsels' rows concatenated.
///
/// Groups are numbered in order of first appearance across the morsels (a morsel's groups by
/// `ColumnCodes`, the kernel's codes, then looked up by their key cells, equal as
/// `ColumnCodes` makes them equal). Sums and means carry the kernel's running state from morsel
/// to morsel — the exact integer sums with their carries, and the compensated sums of
/// `BlockSums` (a Neumaier sum per group per block of rows of the whole input, folded in
/// block order) — so they are the kernel's bit for bit, whatever the morsels. Each morsel is
/// cut at the blocks' boundaries: its head piece continues the open block, the whole blocks
/// inside it are summed on the workers (`add`'s, at most
/// `BlockSums.foldAllGroups` groups) and folded in order, its tail piece opens the next
/// block; a morsel within one block is one serial piece (the per-row loop of one running
/// sum per group). `min`, `max`,
/// `first` and `last` take each morsel's pick by the kernel (`Aggregate.compute`) and keep the
/// earlier one unless the later is strictly better (the kernel's tie rule). `countDistinct`
/// is not streamed (`supports`).
///
/// - Complexity: O(rows) over all morsels, plus O(groups) at the end; memory O(groups) (and
///   one picked cell per group per morsel for the picking aggregates). Past 65,536 groups of
///   fewer than 8 rows each on average, it gives up (the result is as large as the input: the
///   chain runs materialized, where the kernel is faster).
struct GroupByStream {
  let keys: [String]
  let aggregates: [Aggregate]
  private var groupIndex: [[GroupCell]: Int32] = [:]
  /// The same for one key column (no array per group).
  private var singleIndex: [GroupCell: Int32] = [:]
  private(set) var groupCount: Int
  var rowsSeen = 0
  /// The key cells of the groups, in pieces (one per morsel that found new groups).
  private var keyPieces: [[Column]] = []
  var states: [AggregateState]
  /// Rows per block of the sums (`BlockSums`).
  let blockRows: Int

  /// Past this many groups, a stream whose groups average fewer than `fewRowsPerGroup` rows
  /// gives up (`add` throws `CSVMorsels.Fallback`).
  static let manyGroups = 1 << 16
  static let fewRowsPerGroup = 8
  /// The fewest rows per group for which a morsel's sums go in one pass (`add`).
  static let fusedRowsPerGroup = 4

  /// Whether every aggregate can be streamed.
  /// (`countDistinct`, `count(c)` and the analysis aggregates run materialized.)
  static func supports(_ aggregates: [Aggregate]) -> Bool {
    !aggregates.contains { aggregate in
      switch aggregate.function {
      case .countDistinct, .median, .std, .var, .quantile: true
      case .count: aggregate.column != nil
      case .sum, .mean, .min, .max, .first, .last: false
      }
    }
  }

  init(keys: [String], aggregates: [Aggregate], blockRows: Int = BlockSums.standardBlockRows) {
    self.keys = keys
    self.aggregates = aggregates
    self.blockRows = max(1, blockRows)
    groupCount = keys.isEmpty ? 1 : 0
    states = aggregates.map { AggregateState($0.function, blockRows: blockRows) }
    if keys.isEmpty { for index in states.indices { states[index].grow(to: 1) } }
  }

  /// Adds a morsel's rows.
  ///
  /// - Throws: `NodeError` as the kernel would (a missing column, a sum of text).
  /// - Parameter workers: threads for the morsel's key codes and the whole blocks inside it
  ///   (the same result at any count). `StreamedChain` passes the run's threads less one: a
  ///   streamed chain's file is parsed on a thread of its own, one morsel ahead (`CSVMorsels`),
  ///   so on 2 cores the sums stay serial.
  mutating func add(_ table: Table, workers: Int) throws {
    try add(
      table, codes: try Self.codes(of: table, keys: keys, workers: workers, blockRows: blockRows), workers: workers)
  }

  /// A morsel's groups: each row's group in the morsel, numbered by first appearance
  /// (`ColumnCodes`' codes), and how many there are. Depends on the morsel alone, so a streamed
  /// chain computes it where the morsel is made, on several threads at once.
  ///
  /// - Throws: `NodeError` for a key the morsel lacks.
  static func codes(of table: Table, keys: [String], workers: Int, blockRows: Int = BlockSums.standardBlockRows)
    throws -> (local: [Int32], count: Int)
  {
    guard !keys.isEmpty else { return ([Int32](repeating: 0, count: table.rowCount), 1) }
    var keyColumns: [Column] = []
    for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
    // By blocks on the workers for a large morsel.
    let found = GroupCodes.codes(of: keyColumns, rowCount: table.rowCount, workers: workers, blockRows: blockRows)
    return (found.codes, found.cardinality)
  }

  /// Adds a morsel's rows, whose groups in the morsel are `codes` (`codes(of:keys:workers:)`).
  mutating func add(_ table: Table, codes: (local: [Int32], count: Int), workers: Int) throws {
    var keyColumns: [Column] = []
    for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
    var sources: [Column?] = []
    for aggregate in aggregates {
      sources.append(try aggregate.column.map { table.column(at: try TableParameters.column($0, in: table)) })
    }
    let rowCount = table.rowCount
    let (local, localCount) = codes
    precondition(local.count == rowCount, "Internal inconsistency: a morsel's codes for other rows")
    var firstRow = [Int32](repeating: -1, count: localCount)
    var found = 0
    for row in 0..<rowCount where firstRow[Int(local[row])] < 0 {
      firstRow[Int(local[row])] = Int32(row)
      found += 1
      if found == localCount { break }
    }
    let global = number(firstRow, keyColumns: keyColumns)
    // Groups of a few rows each: the result is about as large as the input, so streaming saves
    // nothing and the kernel (one pass over codes) is faster; the chain runs materialized.
    let startRow = rowsSeen
    rowsSeen += rowCount
    if groupCount > Self.manyGroups && groupCount * Self.fewRowsPerGroup > rowsSeen { throw CSVMorsels.Fallback() }
    let segments = Self.segments(firstRow: startRow, rows: rowCount, blockRows: blockRows)
    let parts = wholeBlockParts(segments, sources: sources, local: local, global: global, workers: workers)
    // The compensated sums of the morsel's segments in one pass for all the aggregates that
    // allow it (their additions overlap), when no whole block went to the workers and the
    // morsel has at least `fusedRowsPerGroup` rows per group (the pass moves every group's
    // open sums in and out: never more work than the rows).
    var fused: [Int] = []
    if parts.allSatisfy(\.isEmpty), groupCount <= BlockSums.foldAllGroups,
      rowCount >= groupCount * Self.fusedRowsPerGroup
    {
      fused = states.indices.filter { states[$0].fuses(sources[$0]) }
    }
    if fused.count < 2 { fused = [] }  // one column alone: its own loop
    if !fused.isEmpty {
      for index in fused {
        states[index].grow(to: groupCount)
        states[index].addFused(sources[index]!, local: local, global: global, segments: segments)
      }
      withFusedSums(fused, sources) { sums, columns in
        for segment in segments {
          BlockSums.add(&sums, columns, rows: segment.rows, groups: local, map: global, block: segment.block)
        }
      }
    }
    for index in states.indices where !fused.contains(index) {
      states[index].grow(to: groupCount)
      try states[index].add(
        aggregates[index], column: sources[index], local: local, localCount: localCount, global: global,
        segments: segments, parts: parts[index])
    }
  }

  /// The morsel's groups (`firstRow[g]`: the row where group `g` first appears, -1 for a group
  /// with no row) as groups of the whole: known ones by their key cells, new ones numbered on
  /// in order (their key cells kept); -1 for a group with no row.
  mutating func number(_ firstRow: [Int32], keyColumns: [Column]) -> [Int32] {
    var global = [Int32](repeating: keys.isEmpty ? 0 : -1, count: firstRow.count)
    if !keys.isEmpty {
      var newRows: [Int32] = []
      // In order of first appearance (the codes of a morsel's kept rows need not be).
      var order = firstRow.indices.filter { firstRow[$0] >= 0 }
      if zip(order, order.dropFirst()).contains(where: { firstRow[$0.0] > firstRow[$0.1] }) {
        order.sort { firstRow[$0] < firstRow[$1] }
      }
      for group in order {
        let row = Int(firstRow[group])
        if keyColumns.count == 1 {
          let cell = GroupCell(keyColumns[0], row)
          if let known = singleIndex[cell] { global[group] = known; continue }
          singleIndex[cell] = Int32(groupCount)
        } else {
          let cells = keyColumns.map { GroupCell($0, row) }
          if let known = groupIndex[cells] { global[group] = known; continue }
          groupIndex[cells] = Int32(groupCount)
        }
        global[group] = Int32(groupCount)
        groupCount += 1
        newRows.append(Int32(row))
      }
      if !newRows.isEmpty { keyPieces.append(keyColumns.map { $0.gathering(newRows) }) }
    }
    return global
  }

  /// `body` over the compensated sums of the aggregates `fused` (each `sum` or `mean` of a
  /// column without nulls), one per column (`sum(x)` and `mean(x)` share them, having added
  /// the same values since the first morsel), lent by the states and given back after it.
  mutating func withFusedSums(_ fused: [Int], _ sources: [Column?], _ body: (inout [BlockSums], [Column]) -> Void) {
    var sums: [BlockSums] = [], columns: [Column] = [], summing: [String: Int] = [:], lender: [Int] = []
    for index in fused {
      states[index].grow(to: groupCount)
      let name = aggregates[index].column ?? ""
      if let known = summing[name] {
        lender.append(known)
        _ = states[index].takeSums()
      } else {
        summing[name] = sums.count
        lender.append(sums.count)
        sums.append(states[index].takeSums())
        columns.append(sources[index]!)
      }
    }
    body(&sums, columns)
    for (index, position) in zip(fused, lender) { states[index].putSums(sums[position]) }
  }

  /// The rows `0..<rows` of a morsel whose first row is row `firstRow` of the whole, cut at
  /// the blocks' boundaries, in order.
  static func segments(firstRow: Int, rows: Int, blockRows: Int) -> [(rows: Range<Int>, block: Int)] {
    var segments: [(rows: Range<Int>, block: Int)] = []
    var start = 0
    while start < rows {
      let block = (firstRow + start) / blockRows
      let end = Swift.min(rows, (block + 1) * blockRows - firstRow)
      segments.append((start..<end, block))
      start = end
    }
    return segments
  }

  /// Per aggregate, per segment, the sums of a whole block computed on a worker (`nil`: the
  /// segment is added serially). Only when there are at least two such jobs, several workers
  /// and at most `BlockSums.foldAllGroups` groups.
  private func wholeBlockParts(
    _ segments: [(rows: Range<Int>, block: Int)], sources: [Column?], local: [Int32], global: [Int32],
    workers: Int
  ) -> [[AggregateState.Part?]] {
    var parts = [[AggregateState.Part?]](repeating: [], count: states.count)
    guard workers > 1, groupCount <= BlockSums.foldAllGroups else { return parts }
    let whole = segments.indices.filter { segments[$0].rows.count == blockRows }
    let summed = states.indices.filter { states[$0].sumsBlocks && sources[$0]?.isNumeric == true }
    let jobs = summed.flatMap { aggregate in whole.map { (aggregate: aggregate, segment: $0) } }
    guard jobs.count >= 2 else { return parts }
    let groupCount = groupCount, aggregates = aggregates
    let computed = TableParallelism.map(jobs.count, threads: workers) { index in
      let job = jobs[index], column = sources[job.aggregate]!
      var integers = false
      if aggregates[job.aggregate].function == .sum, case .integer = column.storage { integers = true }
      return AggregateState.part(
        column, rows: segments[job.segment].rows, local: local, global: global, groupCount: groupCount,
        integers: integers)
    }
    for (job, part) in zip(jobs, computed) {
      if parts[job.aggregate].isEmpty {
        parts[job.aggregate] = [AggregateState.Part?](repeating: nil, count: segments.count)
      }
      parts[job.aggregate][job.segment] = part
    }
    return parts
  }

  /// The grouped table.
  func result() throws -> Table {
    var columns: [Column] = []
    for position in keys.indices {
      columns.append(try Column.concatenating(keyPieces.map { $0[position] }))
    }
    for (index, state) in states.enumerated() {
      columns.append(try state.column(aggregates[index], groupCount: groupCount))
    }
    do {
      return try Table(names: keys + aggregates.map(\.output), columns: columns, rowCount: groupCount)
    } catch {
      throw TableParameters.failure(error)
    }
  }
}

/// A key cell as `ColumnCodes` compares it: null a value of its own, numbers by their
/// normalized bits, strings by their UTF-8 bytes.
enum GroupCell: Hashable {
  case null
  case integer(Int64)
  case number(UInt64)
  case bool(Bool)
  case bytes([UInt8])

  init(_ column: Column, _ row: Int) {
    if column.isNull(row) { self = .null; return }
    switch column.storage {
    case .integer(let values): self = .integer(values[row])
    case .number(let values): self = .number(ColumnCodes.normalized(values[row]))
    case .bool(let values): self = .bool(values[row])
    case .string(let strings): self = .bytes(Array(strings.utf8(row)))
    }
  }
}
