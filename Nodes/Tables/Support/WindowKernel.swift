import FlowRuntime

/// One window function over runs of whole partitions of a `WindowOrder` (each run on its own
/// thread; a partition's cells depend only on its rows, so the result is the same at any
/// worker count).
///
/// Aggregates skip nulls and give null over no non-null value; sums of integers (and bools, as
/// 0 and 1) are exact integers (`WindowIntegerSum`), sums of numbers compensated
/// (`NeumaierSum`); `min`/`max` keep the first of equal cells in partition order.
struct WindowKernel: Sendable {
  let function: WindowFunction
  let order: WindowOrder
  /// The column read (`nil` for the functions without one).
  let source: Column?
  /// The source as exact integers (integer or bool columns) or numbers, for sums and means.
  let integers: [Int64]?
  let numbers: [Double]?

  /// A kernel of `function` reading `source`.
  ///
  /// - Throws: `NodeError` when a sum or mean meets a column of text.
  init(_ function: WindowFunction, order: WindowOrder, source: Column?) throws {
    self.function = function
    self.order = order
    self.source = source
    var integers: [Int64]?, numbers: [Double]?
    switch source?.storage {
    case .integer(let values)?: integers = values
    case .bool(let values)?: integers = values.map { $0 ? 1 : 0 }
    case .number(let values)?: numbers = values
    default: break
    }
    switch function.function {
    case .cumsum, .rollingSum, .sum, .cummean, .rollingMean, .mean, .median, .std, .variance, .quantile:
      if integers == nil && numbers == nil {
        throw NodeError(
          "column '\(function.output)': \(function.function.rawValue)(\(function.column ?? "")) needs numbers, "
            + "but the column is \(source.map { "\($0.type)" } ?? "missing")")
      }
      if ![.cumsum, .rollingSum, .sum].contains(function.function) {
        numbers = numbers ?? integers.map { $0.map(Double.init) }
        integers = nil
      }
    default: break
    }
    self.integers = integers
    self.numbers = numbers
  }

  /// The cells of no row, of the type the function gives (for an empty table).
  var emptyCells: WindowCells {
    switch function.function {
    case .rowNumber, .rank, .denseRank, .cumcount, .count: .integers([], valid: [])
    case .cumsum, .rollingSum, .sum: integers != nil ? .integers([], valid: []) : .numbers([], valid: [])
    case .cummean, .rollingMean, .mean, .median, .std, .variance, .quantile: .numbers([], valid: [])
    default: .rows([])
    }
  }

  /// The cells of the partitions `run` (indices into `order.partitions`), in position order.
  ///
  /// - Throws: `NodeError` when an integer sum does not fit in 64 bits.
  func cells(_ run: Range<Int>) throws -> WindowCells {
    let first = order.partitions[run.lowerBound].lowerBound, last = order.partitions[run.upperBound - 1].upperBound
    let count = last - first
    switch function.function {
    case .rowNumber, .rank, .denseRank, .cumcount, .count:
      var values = [Int64](repeating: 0, count: count)
      for partition in order.partitions[run] { counts(partition, into: &values, offset: first) }
      return .integers(values, valid: [Bool](repeating: true, count: count))
    case .lag, .lead, .cummin, .cummax, .rollingMin, .rollingMax, .min, .max, .first, .last:
      var cells = [Int32](repeating: -1, count: count)
      for partition in order.partitions[run] { pick(partition, into: &cells, offset: first) }
      return .rows(cells)
    case .cumsum, .rollingSum, .sum, .cummean, .rollingMean, .mean:
      var valid = [Bool](repeating: false, count: count)
      if let integers {
        var values = [Int64](repeating: 0, count: count)
        for partition in order.partitions[run] {
          try WindowSums.integers(
            function, integers, source!, order.rows, partition, into: &values, &valid, offset: first)
        }
        return .integers(values, valid: valid)
      }
      var values = [Double](repeating: 0, count: count)
      for partition in order.partitions[run] {
        WindowSums.numbers(
          function, numbers ?? [], source!, order.rows, partition, into: &values, &valid, offset: first)
      }
      return .numbers(values, valid: valid)
    case .median, .std, .variance, .quantile:
      var values = [Double](repeating: 0, count: count)
      var valid = [Bool](repeating: false, count: count)
      for partition in order.partitions[run] { statistic(partition, into: &values, &valid, offset: first) }
      return .numbers(values, valid: valid)
    }
  }

  /// `median`, `std`, `var`, `quantile` of the partition's non-null values, on every row of it
  /// (`SampleStatistics`, as `groupBy` computes them).
  private func statistic(_ partition: Range<Int>, into values: inout [Double], _ valid: inout [Bool], offset: Int) {
    guard let source, let numbers else { return }
    var sample: [Double] = []
    sample.reserveCapacity(partition.count)
    for position in partition {
      let row = Int(order.rows[position])
      if !source.isNull(row) { sample.append(numbers[row]) }
    }
    let result: Double? =
      switch function.function {
      case .median: SampleStatistics.median(sample)
      case .quantile: SampleStatistics.quantile(sample, function.q)
      case .variance: SampleStatistics.variance(sample)
      default: SampleStatistics.standardDeviation(sample)
      }
    guard let result else { return }
    for position in partition {
      values[position - offset] = result
      valid[position - offset] = true
    }
  }

  /// The counting functions over one partition.
  private func counts(_ partition: Range<Int>, into values: inout [Int64], offset: Int) {
    var rank: Int64 = 0, dense: Int64 = 0
    var nonNull: Int64 = 0
    if function.function == .count, let source {
      for position in partition where !source.isNull(Int(order.rows[position])) { nonNull += 1 }
    }
    for position in partition {
      let number = Int64(position - partition.lowerBound + 1)
      let value: Int64
      switch function.function {
      case .rank:
        if order.newPeer[position] { rank = number }
        value = rank
      case .denseRank:
        if order.newPeer[position] { dense += 1 }
        value = dense
      case .count: value = source == nil ? Int64(partition.count) : nonNull
      default: value = number
      }
      values[position - offset] = value
    }
  }

  /// The functions that copy a cell of the source: the row each position takes.
  private func pick(_ partition: Range<Int>, into cells: inout [Int32], offset: Int) {
    guard let source else { return }
    let rows = order.rows
    switch function.function {
    case .lag, .lead:
      let step = function.function == .lag ? -function.offset : function.offset
      for position in partition {
        let from = position + step
        cells[position - offset] = partition.contains(from) ? rows[from] : -2
      }
    case .cummin, .cummax:
      let compare = CellOrder.comparator(for: source)
      let wantsMax = function.function == .cummax
      var best: Int32 = -1
      for position in partition {
        let row = rows[position]
        if !source.isNull(Int(row)) {
          if best < 0 {
            best = row
          } else {
            let order = compare(Int(row), Int(best))
            if wantsMax ? order > 0 : order < 0 { best = row }
          }
        }
        cells[position - offset] = best
      }
    case .rollingMin, .rollingMax:
      WindowExtremes.rolling(
        source, rows, partition, size: function.size, max: function.function == .rollingMax,
        into: &cells, offset: offset)
    case .min, .max:
      let compare = CellOrder.comparator(for: source)
      let wantsMax = function.function == .max
      var best: Int32 = -1
      for position in partition where !source.isNull(Int(rows[position])) {
        let row = rows[position]
        if best < 0 {
          best = row
        } else {
          let order = compare(Int(row), Int(best))
          if wantsMax ? order > 0 : order < 0 { best = row }
        }
      }
      for position in partition { cells[position - offset] = best }
    default:  // first, last: the first or last non-null cell
      let present = { (position: Int) in !source.isNull(Int(rows[position])) }
      let found = function.function == .first ? partition.first(where: present) : partition.last(where: present)
      let chosen = found.map { rows[$0] } ?? -1
      for position in partition { cells[position - offset] = chosen }
    }
  }
}
