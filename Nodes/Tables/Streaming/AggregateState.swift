import FlowRuntime

/// One aggregate of a `GroupByStream`: the running state of `Aggregate.compute` per group,
/// carried from morsel to morsel (see `GroupByStream` for why the results are the kernel's).
struct AggregateState {
  private var counts: [Int64] = []
  /// Integer sums while the column is integers (`sum` only), wrapping, with each group's net
  /// carries past `Int64` (as the kernel's: a group whose carries do not cancel is an error).
  private var integerSums: [Int64] = []
  private var carries: [Int64] = []
  private var sawNumbers = false
  /// The compensated sums, block by block as the kernel's (`BlockSums`).
  private var sums: BlockSums
  /// The picking aggregates: each morsel's picks, and per group the piece and row of its pick.
  private var pieces: [Column] = []
  private var picked: [(piece: Int32, row: Int32)] = []
  private let function: Aggregate.Function

  init(_ function: Aggregate.Function, blockRows: Int = BlockSums.standardBlockRows) {
    self.function = function
    sums = BlockSums(blockRows: blockRows)
  }

  /// Whether the aggregate sums by blocks (`sum`, `mean`): its whole blocks may be summed on workers (`part`).
  var sumsBlocks: Bool { function == .sum || function == .mean }

  /// Room for `groupCount` groups (new groups start empty).
  mutating func grow(to groupCount: Int) {
    let extra = groupCount - counts.count
    guard extra > 0 else { return }
    counts.append(contentsOf: repeatElement(0, count: extra))
    switch function {
    case .sum, .mean:
      integerSums.append(contentsOf: repeatElement(0, count: extra))
      carries.append(contentsOf: repeatElement(0, count: extra))
      sums.grow(to: groupCount)
    case .min, .max, .first, .last:
      picked.append(contentsOf: repeatElement((piece: Int32(-1), row: Int32(-1)), count: extra))
    case .count, .countDistinct, .median, .std, .var, .quantile:
      break
    }
  }

  /// A whole block of a `sum` or `mean`, summed on a worker and folded in block order (`add`).
  struct Part: Sendable {
    var sums: BlockSums.Part
    var integerSums: [Int64]
    var carries: [Int64]
  }

  /// The sums of `rows` (one whole block) of `column` over `groupCount` groups (`local`,
  /// `global` as in `add`).
  ///
  /// - Precondition: `column` is numeric; `groupCount <= BlockSums.foldAllGroups`.
  static func part(_ column: Column, rows: Range<Int>, local: [Int32], global: [Int32], groupCount: Int, integers: Bool)
    -> Part
  {
    var integerSums: [Int64] = [], carries: [Int64] = []
    if integers, case .integer(let values) = column.storage {
      integerSums = [Int64](repeating: 0, count: groupCount)
      carries = integerSums
      addIntegers(values, column, rows: rows, local: local, global: global, &integerSums, &carries)
    }
    return Part(
      sums: BlockSums.part(column, rows: rows, groups: local, map: global, groupCount: groupCount),
      integerSums: integerSums, carries: carries)
  }

  /// Exact wrapping sums of the integers of `rows`, with the net carries past `Int64`.
  private static func addIntegers(
    _ values: [Int64], _ column: Column, rows: Range<Int>, local: [Int32], global: [Int32],
    _ sums: inout [Int64], _ carries: inout [Int64]
  ) {
    for row in rows where column.validity.isValid(row) {
      let group = Int(global[Int(local[row])])
      let (sum, didOverflow) = sums[group].addingReportingOverflow(values[row])
      sums[group] = sum
      if didOverflow { carries[group] += values[row] < 0 ? -1 : 1 }
    }
  }

  /// Adds a morsel: `local[row]` is the row's group in the morsel, `global[group]` that
  /// group's number in the whole; `segments` cut the morsel's rows at the blocks of the
  /// whole (`BlockSums`), in order, each with its block and, for a whole block summed on a
  /// worker, its `Part`.
  mutating func add(
    _ aggregate: Aggregate, column: Column?, local: [Int32], localCount: Int, global: [Int32],
    segments: [(rows: Range<Int>, block: Int)], parts: [Part?]
  ) throws {
    guard let column else {
      for group in local { counts[Int(global[Int(group)])] += 1 }
      return
    }
    switch function {
    case .count, .countDistinct, .median, .std, .var, .quantile:
      preconditionFailure("Internal inconsistency: \(function) streamed with a column")
    case .sum, .mean:
      let column = column.boolsAsIntegers
      guard column.isNumeric else {
        throw NodeError(
          "\(function.rawValue)(\(aggregate.column ?? "")) needs numbers, but the column is \(column.type)")
      }
      var integers: [Int64]?
      if case .integer(let values) = column.storage, function == .sum { integers = values } else { sawNumbers = true }
      for (index, segment) in segments.enumerated() {
        if index < parts.count, let part = parts[index] {
          sums.fold(part.sums)
          if integers != nil { foldIntegers(part) }
          continue
        }
        if let integers {
          Self.addIntegers(integers, column, rows: segment.rows, local: local, global: global, &integerSums, &carries)
        }
        sums.add(column, rows: segment.rows, groups: local, map: global, block: segment.block)
      }
    case .min, .max, .first, .last:
      let picks = try aggregate.compute(groups: local, groupCount: localCount, column: column)
      let piece = Int32(pieces.count)
      pieces.append(picks)
      for group in 0..<localCount where !picks.isNull(group) {
        let target = Int(global[group])
        let current = picked[target]
        if current.piece < 0 { picked[target] = (piece, Int32(group)); continue }
        guard function != .first else { continue }
        if function == .last {
          picked[target] = (piece, Int32(group))
          continue
        }
        let order = Self.compare(picks, group, pieces[Int(current.piece)], Int(current.row))
        if function == .max ? order > 0 : order < 0 { picked[target] = (piece, Int32(group)) }
      }
    }
  }

  /// Whether the aggregate's compensated sums of `column` may be added together with other
  /// aggregates' in one pass (`GroupByStream`, `BlockSums.add` of several): a `sum` or `mean`
  /// of numbers or integers without nulls.
  func fuses(_ column: Column?) -> Bool {
    guard sumsBlocks, let column, column.nullCount == 0 else { return false }
    switch column.storage {
    case .number, .integer: return true
    case .bool, .string: return false
    }
  }

  /// `add` of an aggregate that `fuses` `column`, but for its compensated sums, which the
  /// caller adds to the sums `takeSums` lends it.
  mutating func addFused(_ column: Column, local: [Int32], global: [Int32], segments: [(rows: Range<Int>, block: Int)])
  {
    guard case .integer(let values) = column.storage, function == .sum else {
      sawNumbers = true
      return
    }
    for segment in segments {
      Self.addIntegers(values, column, rows: segment.rows, local: local, global: global, &integerSums, &carries)
    }
  }

  /// `add` for the rows `grouped` lists, of a `count()` or of a `sum` or `mean` that `fuses`
  /// its column, but for the compensated sums (`BlockSums.addGrouped`, on the sums `takeSums`
  /// lends): a count takes each group's number of rows, an integer `sum` its exact sums group
  /// by group (order does not change a wrapping sum or its net carries).
  mutating func addGrouped(_ column: Column?, grouped: GroupRows, global: [Int32]) {
    let starts = grouped.starts
    guard let column else {
      for group in 0..<grouped.groupCount where starts[group + 1] > starts[group] {
        counts[Int(global[group])] += Int64(starts[group + 1] - starts[group])
      }
      return
    }
    guard case .integer(let values) = column.storage, function == .sum else {
      sawNumbers = true
      return
    }
    for group in 0..<grouped.groupCount where starts[group + 1] > starts[group] {
      let target = Int(global[group])
      let part = grouped.sum(of: values, at: starts[group]..<starts[group + 1])
      let (sum, didOverflow) = integerSums[target].addingReportingOverflow(part.sum)
      integerSums[target] = sum
      carries[target] += part.carries + (didOverflow ? (part.sum < 0 ? -1 : 1) : 0)
    }
  }

  /// The compensated sums, lent (`putSums` gives them back; meanwhile the state holds none).
  mutating func takeSums() -> BlockSums {
    defer { sums = BlockSums(blockRows: sums.blockRows) }
    return sums
  }

  mutating func putSums(_ lent: BlockSums) { sums = lent }

  /// Adds a block's exact integer sums (wrapping sums add as the values do: an overflow is a carry).
  private mutating func foldIntegers(_ part: Part) {
    for group in 0..<min(part.integerSums.count, integerSums.count) {
      let value = part.integerSums[group]
      let (sum, didOverflow) = integerSums[group].addingReportingOverflow(value)
      integerSums[group] = sum
      carries[group] += part.carries[group] + (didOverflow ? (value < 0 ? -1 : 1) : 0)
    }
  }

  /// The aggregate's column over `groupCount` groups.
  func column(_ aggregate: Aggregate, groupCount: Int) throws -> Column {
    switch function {
    case .count:
      if aggregate.column == nil { return Column(.integer(counts)) }
      preconditionFailure("Internal inconsistency: count() with a column")
    case .countDistinct, .median, .std, .var, .quantile:
      preconditionFailure("Internal inconsistency: \(function) is not streamed")
    case .sum, .mean:
      if function == .sum, !sawNumbers {
        // Out of range: the chain runs materialized, where the kernel names the group.
        if carries.contains(where: { $0 != 0 }) { throw CSVMorsels.Fallback() }
        return Column(.integer(integerSums), validity: Validity(sums.seen.lazy.map { $0 > 0 }))
      }
      return sums.column(mean: function == .mean)
    case .min, .max, .first, .last:
      var starts: [Int32] = []
      var offset: Int32 = 0
      for piece in pieces {
        starts.append(offset)
        offset += Int32(piece.count)
      }
      let all = try Column.concatenating(pieces)
      return all.gathering(picked.map { $0.piece < 0 ? -1 : starts[Int($0.piece)] + $0.row })
    }
  }

  /// Two non-null cells of columns of one type, as `CellOrder` orders them.
  static func compare(_ a: Column, _ i: Int, _ b: Column, _ j: Int) -> Int {
    switch (a.storage, b.storage) {
    case (.integer(let x), .integer(let y)): return x[i] < y[j] ? -1 : (x[i] == y[j] ? 0 : 1)
    case (.number(let x), .number(let y)): return CellOrder.compare(x[i], y[j])
    case (.bool(let x), .bool(let y)): return x[i] == y[j] ? 0 : (x[i] ? 1 : -1)
    case (.string(let x), .string(let y)): return x.compare(i, with: y, j)
    default: return CellOrder.compare(a.number(at: i) ?? 0, b.number(at: j) ?? 0)
    }
  }
}
