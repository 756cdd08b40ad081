import FlowRuntime

/// The new columns of `pivot` and their cells.
enum PivotColumns {
  /// The new columns' names (the distinct texts of `column`'s non-null cells, sorted by
  /// Unicode scalars) and each row's column among them (`-1` for a null cell).
  ///
  /// - Throws: `NodeError` naming the limit when there are more than
  ///   `PivotNode.maxNewColumns` distinct values (checked before they are sorted).
  /// - Complexity: O(rows + d log d) for d distinct values.
  static func slots(of column: Column, named name: String) throws -> (names: [String], slots: [Int32]) {
    let (codes, cardinality) = ColumnCodes.codes(of: column)
    var representative = [Int](repeating: -1, count: cardinality)
    for row in codes.indices where representative[Int(codes[row])] < 0 && !column.isNull(row) {
      representative[Int(codes[row])] = row
    }
    let present = representative.filter { $0 >= 0 }.count
    guard present <= PivotNode.maxNewColumns else {
      throw NodeError(
        "columns: column '\(name)' has \(present) distinct values, more than the limit of "
          + "\(PivotNode.maxNewColumns) new columns a pivot may add")
    }
    // Each code's text; equal texts (if two values print alike) share a column.
    let texts: [String?] = representative.map { $0 >= 0 ? column[$0].text : nil }
    let names = Array(Set(texts.compactMap { $0 })).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    var slotOfName: [String: Int32] = [:]
    for (slot, name) in names.enumerated() { slotOfName[name] = Int32(slot) }
    let slotOfCode = texts.map { $0.flatMap { slotOfName[$0] } ?? -1 }
    return (names, codes.indices.map { column.isNull($0) ? -1 : slotOfCode[Int(codes[$0])] })
  }

  /// The aggregate `function` of `column` over each pair (`pairs[row]` in `0..<pairCount`):
  /// null over no non-null value (`count`: the non-null values, 0 over none).
  ///
  /// - Throws: `NodeError` naming param `values` (a sum of text, an integer sum out of range).
  static func aggregate(
    _ function: String, of column: Column, named name: String, pairs: [Int32],
    pairCount: Int
  ) throws -> Column {
    if function == "count" {
      var counts = [Int64](repeating: 0, count: pairCount)
      for row in pairs.indices where !column.isNull(row) { counts[Int(pairs[row])] += 1 }
      return Column(.integer(counts))
    }
    guard let kind = Aggregate.Function(rawValue: function) else {
      preconditionFailure("Internal inconsistency: pivot aggregate '\(function)' passed validation")
    }
    let aggregate = Aggregate(output: name, function: kind, column: name)
    do {
      return try aggregate.compute(groups: pairs, groupCount: pairCount, column: column)
    } catch is IntegerSumOverflow {
      throw NodeError("values: sum(\(name)) does not fit in a 64-bit integer in a cell (integer sums are exact)")
    } catch let error as NodeError {
      throw NodeError("values: \(error.message)")
    }
  }
}
