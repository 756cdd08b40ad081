import FlowRuntime

/// Dense codes for one join key column: the right (build) side hashed once into a table of its
/// distinct values, then the left (probe) side looked up in that table, read-only, in morsels
/// on the workers (results joined in morsel order: the same codes at any worker count). String
/// keys hash their UTF-8 bytes in place (`UTF8Key`), never a `String` per row.
enum JoinCodes {
  /// Codes for join keys: `right` rows get codes for their distinct values in order of first
  /// appearance; `left` rows get the code of the equal right value or -1; null cells get -1 on
  /// both sides (never match). Integer and number columns compare numerically.
  ///
  /// - Throws: `NodeError` if the two columns hold different kinds of values.
  /// - Complexity: O(right rows) to build, O(left rows) to probe, on `morsels.workers` threads. Integer and
  ///   number keys probe an `IntegerCodeTable`.
  static func codes(left: Column, right: Column, name: String,
                    morsels: TableMorsels) throws -> (left: [Int32], right: [Int32], cardinality: Int) {
    switch (left.storage, right.storage) {
    case (.integer(let a), .integer(let b)):
      return probeIntegers(left, right, morsels, { a[$0] }, { b[$0] })
    case (.string(let a), .string(let b)):
      return probe(left, right, morsels, { UTF8Key(a.utf8($0)) }, { UTF8Key(b.utf8($0)) })
    case (.bool(let a), .bool(let b)):
      return probe(left, right, morsels, { a[$0] }, { b[$0] })
    case _ where left.isNumeric && right.isNumeric:
      return probeIntegers(left, right, morsels, { Int64(bitPattern: ColumnCodes.normalized(left.number(at: $0) ?? 0)) },
                           { Int64(bitPattern: ColumnCodes.normalized(right.number(at: $0) ?? 0)) })
    default:
      throw NodeError("join key '\(name)' is \(left.type) on the left but \(right.type) on the right")
    }
  }

  /// Builds the right side's table of keys, then probes the left side in morsels.
  private static func probe<Key: Hashable & Sendable>(
    _ left: Column, _ right: Column, _ morsels: TableMorsels,
    _ leftKey: @Sendable (Int) -> Key, _ rightKey: (Int) -> Key
  ) -> (left: [Int32], right: [Int32], cardinality: Int) {
    var rightCodes = [Int32](repeating: -1, count: right.count)
    var built: [Key: Int32] = [:]
    var next: Int32 = 0
    for row in 0..<right.count where !right.isNull(row) {
      let key = rightKey(row)
      if let code = built[key] { rightCodes[row] = code } else {
        built[key] = next
        rightCodes[row] = next
        next += 1
      }
    }
    let table = built
    let parts = morsels.map(left.count) { range in
      var codes = [Int32](repeating: -1, count: range.count)
      let base = range.lowerBound
      if left.nullCount == 0 {
        for row in range { codes[row &- base] = table[leftKey(row)] ?? -1 }
      } else {
        for row in range where !left.isNull(row) { codes[row &- base] = table[leftKey(row)] ?? -1 }
      }
      return codes
    }
    return (TableMorsels.joined(parts), rightCodes, Int(next))
  }

  /// `probe` for 64-bit keys, through an `IntegerCodeTable` instead of a `Dictionary`.
  private static func probeIntegers(
    _ left: Column, _ right: Column, _ morsels: TableMorsels,
    _ leftKey: @Sendable (Int) -> Int64, _ rightKey: (Int) -> Int64
  ) -> (left: [Int32], right: [Int32], cardinality: Int) {
    var rightCodes = [Int32](repeating: -1, count: right.count)
    var built = IntegerCodeTable(capacity: right.count)
    for row in 0..<right.count where !right.isNull(row) { rightCodes[row] = built.insert(rightKey(row)) }
    let table = built
    let parts = morsels.map(left.count) { range in
      var codes = [Int32](repeating: -1, count: range.count)
      let base = range.lowerBound
      if left.nullCount == 0 {
        for row in range { codes[row &- base] = table.code(of: leftKey(row)) }
      } else {
        for row in range where !left.isNull(row) { codes[row &- base] = table.code(of: leftKey(row)) }
      }
      return codes
    }
    return (TableMorsels.joined(parts), rightCodes, table.count)
  }

  /// Combines the ids of the key columns so far (`ids`, -1 for no match possible) with the
  /// codes of one more key column: the right side's pairs get new dense ids in order of first
  /// appearance, the left side's pairs are looked up (in morsels); -1 stays -1.
  ///
  /// - Complexity: O(right rows + left rows).
  static func combined(left ids: [Int32], right rightIDs: [Int32], with codes: (left: [Int32], right: [Int32], cardinality: Int),
                       morsels: TableMorsels) -> (left: [Int32], right: [Int32], cardinality: Int) {
    let width = Int64(codes.cardinality)
    var built = IntegerCodeTable(capacity: rightIDs.count)
    var right = rightIDs
    for row in right.indices {
      guard right[row] >= 0, codes.right[row] >= 0 else { right[row] = -1; continue }
      right[row] = built.insert(Int64(right[row]) * width + Int64(codes.right[row]))
    }
    let table = built, leftCodes = codes.left
    let parts = morsels.map(ids.count) { range in
      range.map { row -> Int32 in
        guard ids[row] >= 0, leftCodes[row] >= 0 else { return -1 }
        return table.code(of: Int64(ids[row]) * width + Int64(leftCodes[row]))
      }
    }
    return (TableMorsels.joined(parts), right, table.count)
  }
}
