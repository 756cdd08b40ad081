import FlowRuntime

/// The analysis aggregates of `groupBy`: `median(c)`, `std(c)`, `var(c)` and `quantile(c, q)`
/// over each group's non-null values (``SampleStatistics``).
extension Aggregate {
  /// The statistic of `column` per group: the values are laid out group by group (a counting
  /// sort, in row order), then each group's run is sorted (`median`, `quantile`) or folded
  /// twice (`std`, `var`).
  ///
  /// - Throws: `NodeError` for a column that is not numeric (bools count as 0 and 1 already).
  /// - Complexity: O(rows log rows).
  func statistics(groups: [Int32], groupCount: Int, column: Column) throws -> Column {
    let numbers: (Int) -> Double
    switch column.storage {
    case .integer(let values): numbers = { Double(values[$0]) }
    case .number(let values): numbers = { values[$0] }
    case .bool, .string:
      let call =
        function == .quantile ? "quantile(\(self.column ?? ""), q)" : "\(function.rawValue)(\(self.column ?? ""))"
      throw NodeError("\(call) needs numbers, but the column is \(column.type)")
    }
    var starts = [Int](repeating: 0, count: groupCount + 1)
    for row in 0..<column.count where column.validity.isValid(row) { starts[Int(groups[row]) + 1] += 1 }
    for group in 0..<groupCount { starts[group + 1] += starts[group] }
    var values = [Double](repeating: 0, count: starts[groupCount])
    var next = starts
    for row in 0..<column.count where column.validity.isValid(row) {
      let group = Int(groups[row])
      values[next[group]] = numbers(row)
      next[group] += 1
    }
    var result = [Double](repeating: 0, count: groupCount)
    var valid = [Bool](repeating: false, count: groupCount)
    for group in 0..<groupCount {
      let run = values[starts[group]..<starts[group + 1]]
      let statistic: Double?
      switch function {
      case .std: statistic = SampleStatistics.standardDeviation(run)
      case .var: statistic = SampleStatistics.variance(run)
      default:
        statistic = SampleStatistics.quantile(
          sorted: run.sorted { CellOrder.compare($0, $1) < 0 },
          function == .median ? 0.5 : q ?? 0.5)
      }
      if let statistic {
        result[group] = statistic
        valid[group] = true
      }
    }
    return Column(.number(result), validity: Validity(valid))
  }
}

extension Column {
  /// The column with a bool column's `true` as 1 and `false` as 0 (an `integer` column, nulls
  /// kept), for the aggregates that count `true` as 1 (`sum`, `mean`, the statistics); any
  /// other column as it is.
  var boolsAsIntegers: Column {
    guard case .bool(let values) = storage else { return self }
    return Column(.integer(values.map { $0 ? 1 : 0 }), validity: validity)
  }
}
