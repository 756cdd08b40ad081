import FlowGraph
import FlowRuntime

/// One entry of `groupBy.aggregate`: `output: "function(column)"`.
struct Aggregate: Sendable {
  enum Function: String, Sendable, CaseIterable {
    case count, sum, mean, min, max, first, last, countDistinct
    /// The analysis aggregates (``SampleStatistics``).
    case median, std, `var`, quantile
  }

  /// The aggregates an error message lists.
  static let listing =
    "count(), count(c), sum(c), mean(c), min(c), max(c), first(c), last(c), countDistinct(c), "
    + "median(c), std(c), var(c), quantile(c, q)"

  var output: String
  var function: Function
  /// The column aggregated (`nil` for `count()`).
  var column: String?
  /// `q` of `quantile(c, q)`, in 0…1.
  var q: Double? = nil

  /// Parses `text` (`count()`, `sum(c)`, `quantile(c, 0.9)`, …; a column may be written in
  /// backticks).
  ///
  /// - Returns: `nil` with a reason if the text is not an aggregate.
  static func parse(output: String, _ text: String) -> Result<Aggregate, NodeConfigurationError> {
    let trimmed = text.trimmingSpaces
    let problem = NodeConfigurationError(
      parameter: "aggregate",
      reason: "'\(output)': \"\(text)\" is not an aggregate (\(listing))")
    guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else { return .failure(problem) }
    guard let function = Function(rawValue: String(trimmed[..<open]).trimmingSpaces) else { return .failure(problem) }
    var argument = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]).trimmingSpaces
    var q: Double?
    if function == .quantile {
      // `quantile(c, q)`: the last comma parts the column from `q`, a number in 0…1.
      guard let comma = argument.lastIndex(of: ","),
        let value = Double(String(argument[argument.index(after: comma)...]).trimmingSpaces),
        value >= 0, value <= 1
      else {
        return .failure(
          NodeConfigurationError(
            parameter: "aggregate",
            reason: "'\(output)': \"\(text)\" needs a quantile from 0 to 1 after the column, as in quantile(c, 0.9)"))
      }
      q = value
      argument = String(argument[..<comma]).trimmingSpaces
    }
    if argument.count >= 2 && argument.hasPrefix("`") && argument.hasSuffix("`") {
      argument = String(argument.dropFirst().dropLast())
    }
    if function == .count, argument.isEmpty {
      return .success(Aggregate(output: output, function: function, column: nil))
    }
    guard !argument.isEmpty else { return .failure(problem) }
    return .success(Aggregate(output: output, function: function, column: argument, q: q))
  }

  /// The aggregate of `column` over each group (`groups[row]` in `0..<groupCount`); groups
  /// with no non-null value get null (`count()` counts rows, `count(c)` non-null values: 0 for
  /// none). A bool column counts `true` as 1 in the numeric aggregates.
  ///
  /// - Throws: `NodeError` (a sum of text), `IntegerSumOverflow` (an integer sum out of range:
  ///   the caller names the group).
  /// - Complexity: O(rows) (plus hashing for `countDistinct`).
  /// - Parameters:
  ///   - workers: threads for the blocks of a `sum` or `mean` of numbers (the same bits at any count).
  ///   - blockRows: the rows per block of those sums (`BlockSums`; tests use small blocks).
  func compute(
    groups: [Int32], groupCount: Int, column: Column?, workers: Int = 1,
    blockRows: Int = BlockSums.standardBlockRows
  ) throws -> Column {
    guard let column else {
      var counts = [Int64](repeating: 0, count: groupCount)
      for group in groups { counts[Int(group)] += 1 }
      return Column(.integer(counts))
    }
    let rows = column.count
    switch function {
    case .count:
      var counts = [Int64](repeating: 0, count: groupCount)
      for row in 0..<rows where column.validity.isValid(row) { counts[Int(groups[row])] += 1 }
      return Column(.integer(counts))
    case .median, .std, .var, .quantile:
      return try statistics(groups: groups, groupCount: groupCount, column: column.boolsAsIntegers)
    case .sum, .mean:
      let column = column.boolsAsIntegers
      guard column.isNumeric else {
        throw NodeError("\(function.rawValue)(\(self.column ?? "")) needs numbers, but the column is \(column.type)")
      }
      if function == .sum, case .integer(let values) = column.storage {
        var seen = [Int64](repeating: 0, count: groupCount)
        // Exact (Reference.md, "Values and types"): wrapping sums plus each group's net carries past Int64; a group
        // whose carries do not cancel has a sum out of range, an error (never a double).
        var sums = [Int64](repeating: 0, count: groupCount)
        var carries: [Int64] = []
        for row in 0..<rows where column.validity.isValid(row) {
          let group = Int(groups[row])
          let value = values[row]
          let (sum, didOverflow) = sums[group].addingReportingOverflow(value)
          sums[group] = sum
          if didOverflow {
            if carries.isEmpty { carries = [Int64](repeating: 0, count: groupCount) }
            carries[group] += value < 0 ? -1 : 1
          }
          seen[group] += 1
        }
        if let group = carries.firstIndex(where: { $0 != 0 }) { throw IntegerSumOverflow(group: group) }
        return Column(.integer(sums), validity: Validity(seen.lazy.map { $0 > 0 }))
      }
      // Compensated (Neumaier) sums per block of rows, folded in block order (`BlockSums`).
      return BlockSums.column(
        of: column, groups: groups, groupCount: groupCount, mean: function == .mean,
        workers: workers, blockRows: blockRows)
    case .min, .max:
      var best = [Int32](repeating: -1, count: groupCount)
      let compare = CellOrder.comparator(for: column)
      let wantsMax = function == .max
      for row in 0..<rows where column.validity.isValid(row) {
        let group = Int(groups[row])
        let current = best[group]
        if current < 0 { best[group] = Int32(row); continue }
        let order = compare(row, Int(current))
        if wantsMax ? order > 0 : order < 0 { best[group] = Int32(row) }
      }
      return column.gathering(best)
    case .first, .last:
      var chosen = [Int32](repeating: -1, count: groupCount)
      for row in 0..<rows where column.validity.isValid(row) {
        let group = Int(groups[row])
        if function == .last || chosen[group] < 0 { chosen[group] = Int32(row) }
      }
      return column.gathering(chosen)
    case .countDistinct:
      let (codes, cardinality) = ColumnCodes.codes(of: column)
      return Self.distinctCounts(
        groups: groups, groupCount: groupCount, codes: codes, cardinality: cardinality,
        validity: column.validity)
    }
  }

  /// `countDistinct`: the rows with a value bucketed by group (a counting sort), then each
  /// group's codes counted once by marking each code with the last group that saw it. Four
  /// bytes a row, a group and a distinct value — no set of (group, value) pairs.
  ///
  /// - Complexity: O(rows + groups + distinct values).
  static func distinctCounts(
    groups: [Int32], groupCount: Int, codes: [Int32], cardinality: Int,
    validity: Validity
  ) -> Column {
    var starts = [Int32](repeating: 0, count: groupCount + 1)
    for row in codes.indices where validity.isValid(row) { starts[Int(groups[row]) + 1] += 1 }
    for group in 0..<groupCount { starts[group + 1] += starts[group] }
    var next = starts
    var order = [Int32](repeating: 0, count: Int(starts[groupCount]))
    for row in codes.indices where validity.isValid(row) {
      let group = Int(groups[row])
      order[Int(next[group])] = Int32(row)
      next[group] += 1
    }
    var marks = [Int32](repeating: -1, count: cardinality)
    var counts = [Int64](repeating: 0, count: groupCount)
    for group in 0..<groupCount {
      var count: Int64 = 0
      for slot in Int(starts[group])..<Int(starts[group + 1]) {
        let code = Int(codes[Int(order[slot])])
        if marks[code] != Int32(group) {
          marks[code] = Int32(group)
          count += 1
        }
      }
      counts[group] = count
    }
    return Column(.integer(counts), validity: Validity(counts.lazy.map { $0 > 0 }))
  }
}

/// An integer `sum` whose exact value does not fit in `Int64`, in group `group` (the first
/// such group in group order). Reference.md, "Values and types": integers are exact, so the sum is an error, never a
/// double; `groupBy` names the node's aggregate and the group's keys (`message`).
struct IntegerSumOverflow: Error {
  let group: Int

  /// The node's error: the aggregate, and the group by its key cells at `row` (each at most
  /// 60 characters, control characters escaped).
  func message(_ aggregate: Aggregate, keys: [String], keyColumns: [Column], row: Int) -> NodeError {
    let cells = zip(keys, keyColumns).map { key, column -> String in
      var text = column[row].description
      if text.count > 60 { text = String(text.prefix(59)) + "…" }
      return "\(key) = \(text)"
    }
    let group = keys.isEmpty ? "over all rows" : "in the group \(cells.joined(separator: ", "))"
    return NodeError(
      ("\(aggregate.output): sum(\(aggregate.column ?? "")) does not fit in a 64-bit integer \(group) "
        + "(integer sums are exact)").controlEscaped)
  }
}
