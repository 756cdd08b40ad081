import FlowRuntime

/// `groupBy`'s group ids for a whole table, on several threads for a large one: the codes of
/// `ColumnCodes.codes(of:rowCount:)` — equal keys share an id, ids count up in order of first
/// appearance — whatever the worker count.
///
/// Large tables (at least two blocks of `blockRows` rows and several workers): each block's
/// keys are coded on a worker (`ColumnCodes` on the block's rows: block-local ids in order of
/// first appearance in the block); the blocks are then merged in block order, each local group
/// looked up by its key cells (`GroupCell`, equal as `ColumnCodes` makes them equal) and new
/// ones numbered on — so the ids are in order of first appearance overall; the rows' local ids
/// are mapped to those on the workers. When the blocks' groups add up to more than an eighth
/// of the rows, merging by cells costs more than coding serially: the serial codes are used.
enum GroupCodes {
  static func codes(
    of keyColumns: [Column], rowCount: Int, workers: Int,
    blockRows: Int = BlockSums.standardBlockRows
  ) -> (codes: [Int32], cardinality: Int) {
    let size = max(1, blockRows)
    let blocks = (rowCount + size - 1) / size
    guard !keyColumns.isEmpty, workers > 1, blocks > 1 else {
      return ColumnCodes.codes(of: keyColumns, rowCount: rowCount)
    }
    let ranges = (0..<blocks).map { $0 * size..<min(rowCount, ($0 + 1) * size) }
    let local = TableParallelism.map(blocks, threads: workers) {
      block -> (codes: [Int32], count: Int, firstRows: [Int32]) in
      let range = ranges[block]
      let (codes, count) = ColumnCodes.codes(of: keyColumns.map { $0.slice(range) }, rowCount: range.count)
      var firstRows = [Int32](repeating: -1, count: count)
      for row in codes.indices where firstRows[Int(codes[row])] < 0 {
        firstRows[Int(codes[row])] = Int32(range.lowerBound + row)
      }
      return (codes, count, firstRows)
    }
    guard local.reduce(0, { $0 + $1.count }) <= rowCount / 8 else {
      return ColumnCodes.codes(of: keyColumns, rowCount: rowCount)
    }
    if let merged = mergedIntegers(keyColumns, local, workers: workers) { return merged }
    // Merge in block order: each block's groups, in their order, as groups of the whole.
    var single: [GroupCell: Int32] = [:], composite: [[GroupCell]: Int32] = [:]
    var cardinality: Int32 = 0
    var maps: [[Int32]] = []
    for block in local {
      var map = [Int32](repeating: 0, count: block.count)
      for (group, row) in block.firstRows.enumerated() {
        let id: Int32
        if keyColumns.count == 1 {
          let cell = GroupCell(keyColumns[0], Int(row))
          if let known = single[cell] { id = known } else { id = cardinality; single[cell] = id; cardinality += 1 }
        } else {
          let cells = keyColumns.map { GroupCell($0, Int(row)) }
          if let known = composite[cells] {
            id = known
          } else {
            id = cardinality; composite[cells] = id; cardinality += 1
          }
        }
        map[group] = id
      }
      maps.append(map)
    }
    let merged = maps
    let mapped = TableParallelism.map(blocks, threads: workers) { block in
      local[block].codes.map { merged[block][Int($0)] }
    }
    return (TableMorsels.joined(mapped), Int(cardinality))
  }

  /// The merge for one integer key column without nulls: block groups looked up by their
  /// value in an `IntegerCodeTable`, not by a hashed `GroupCell` (TPC-H Q13 groups 1.5
  /// million joined rows by 150,000 customer keys); `nil` for other keys.
  private static func mergedIntegers(
    _ keyColumns: [Column], _ local: [(codes: [Int32], count: Int, firstRows: [Int32])],
    workers: Int
  ) -> (codes: [Int32], cardinality: Int)? {
    guard keyColumns.count == 1, keyColumns[0].nullCount == 0, case .integer(let values) = keyColumns[0].storage else {
      return nil
    }
    var table = IntegerCodeTable(capacity: local.reduce(0) { $0 + $1.count })
    let maps = local.map { block in block.firstRows.map { table.insert(values[Int($0)]) } }
    let mapped = TableParallelism.map(local.count, threads: workers) { block in
      local[block].codes.map { maps[block][Int($0)] }
    }
    return (TableMorsels.joined(mapped), table.count)
  }
}
