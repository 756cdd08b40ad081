import FlowRuntime

/// `groupBy` over a table handed in morsels (`StreamedChain`): the same table as
/// `GroupByNode` gives on the morsels' rows concatenated.
///
/// Groups are numbered in order of first appearance across the morsels (a morsel's groups by
/// `ColumnCodes`, the kernel's codes, then looked up by their key cells, equal as
/// `ColumnCodes` makes them equal). Sums and means carry the kernel's running state from morsel
/// to morsel — the integer sums with their overflow flag, and the Neumaier sum and error term
/// per group, added in row order — so they are the kernel's bit for bit; `min`, `max`,
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
  private var groupCount: Int
  private var rowsSeen = 0
  /// The key cells of the groups, in pieces (one per morsel that found new groups).
  private var keyPieces: [[Column]] = []
  private var states: [AggregateState]

  /// Past this many groups, a stream whose groups average fewer than `fewRowsPerGroup` rows
  /// gives up (`add` throws `CSVMorsels.Fallback`).
  static let manyGroups = 1 << 16
  static let fewRowsPerGroup = 8

  /// Whether every aggregate can be streamed.
  static func supports(_ aggregates: [Aggregate]) -> Bool { !aggregates.contains { $0.function == .countDistinct } }

  init(keys: [String], aggregates: [Aggregate]) {
    self.keys = keys
    self.aggregates = aggregates
    groupCount = keys.isEmpty ? 1 : 0
    states = aggregates.map { AggregateState($0.function) }
    if keys.isEmpty { for index in states.indices { states[index].grow(to: 1) } }
  }

  /// Adds a morsel's rows.
  ///
  /// - Throws: `NodeError` as the kernel would (a missing column, a sum of text).
  mutating func add(_ table: Table) throws {
    var keyColumns: [Column] = []
    for key in keys { keyColumns.append(table.column(at: try TableParameters.column(key, in: table))) }
    var sources: [Column?] = []
    for aggregate in aggregates {
      sources.append(try aggregate.column.map { table.column(at: try TableParameters.column($0, in: table)) })
    }
    let rowCount = table.rowCount
    let local: [Int32], localCount: Int
    if keys.isEmpty {
      local = [Int32](repeating: 0, count: rowCount)
      localCount = 1
    } else {
      (local, localCount) = ColumnCodes.codes(of: keyColumns, rowCount: rowCount)
    }
    var firstRow = [Int32](repeating: -1, count: localCount)
    for row in 0..<rowCount where firstRow[Int(local[row])] < 0 { firstRow[Int(local[row])] = Int32(row) }
    // Each of the morsel's groups as a group of the whole, new ones numbered on.
    var global = [Int32](repeating: 0, count: localCount)
    if !keys.isEmpty {
      var newRows: [Int32] = []
      for group in 0..<localCount {
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
    // Groups of a few rows each: the result is about as large as the input, so streaming saves
    // nothing and the kernel (one pass over codes) is faster; the chain runs materialized.
    rowsSeen += rowCount
    if groupCount > Self.manyGroups && groupCount * Self.fewRowsPerGroup > rowsSeen { throw CSVMorsels.Fallback() }
    for index in states.indices {
      states[index].grow(to: groupCount)
      try states[index].add(aggregates[index], column: sources[index], local: local, localCount: localCount, global: global)
    }
  }

  /// The grouped table.
  func result() throws -> Table {
    var columns: [Column] = []
    for position in keys.indices {
      columns.append(try Column.concatenating(keyPieces.map { $0[position] }))
    }
    for (index, state) in states.enumerated() { columns.append(try state.column(aggregates[index], groupCount: groupCount)) }
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
