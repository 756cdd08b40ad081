import FlowRuntime

/// Dense codes for one join key column: the right (build) side hashed once into a table of its
/// distinct values (64-bit keys: the left side when it is at most half the right's rows), then
/// the other (probe) side looked up in that table, read-only, in morsels
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
  static func codes(
    left: Column, right: Column, name: String,
    morsels: TableMorsels
  ) throws -> (left: [Int32], right: [Int32], cardinality: Int) {
    switch (left.storage, right.storage) {
    case (.integer(let a), .integer(let b)):
      return probeIntegers(left, right, morsels, { a[$0] }, { b[$0] })
    case (.string(let a), .string(let b)):
      if let codes = dictionaryCodes(left, a, right, b, morsels) { return codes }
      return probe(left, right, morsels, into: HashedKeyTable.self, { UTF8Key(a.utf8($0)) }, { UTF8Key(b.utf8($0)) })
    case (.bool(let a), .bool(let b)):
      return probe(left, right, morsels, into: HashedKeyTable.self, { a[$0] }, { b[$0] })
    case _ where left.isNumeric && right.isNumeric:
      return probeIntegers(
        left, right, morsels,
        { Int64(bitPattern: ColumnCodes.normalized(left.number(at: $0) ?? 0)) },
        { Int64(bitPattern: ColumnCodes.normalized(right.number(at: $0) ?? 0)) })
    default:
      throw NodeError("join key '\(name)' is \(left.type) on the left but \(right.type) on the right")
    }
  }

  /// Builds the right side's table of keys (a `JoinKeyTable`: a `Dictionary`, or
  /// an `IntegerCodeTable` for 64-bit keys), then probes the left side in morsels.
  static func probe<Table: JoinKeyTable>(
    _ left: Column, _ right: Column, _ morsels: TableMorsels, into _: Table.Type,
    _ leftKey: @Sendable (Int) -> Table.Key, _ rightKey: (Int) -> Table.Key
  ) -> (left: [Int32], right: [Int32], cardinality: Int) {
    var rightCodes = [Int32](repeating: -1, count: right.count)
    var built = Table(capacity: right.count)
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

  /// `probe` into an `IntegerCodeTable`; a right side of at least 4 morsels (262,144 rows by
  /// default) on several workers is built in hash partitions, one per worker
  /// (`PartitionedCodeTable`): the same codes. Smaller build sides stay serial: TPC-H Q3 at
  /// scale factor 1 (a 147,000-row build, a 3.2-million-row probe) measured slower on 2 cores
  /// partitioned — the build is a few milliseconds, the partitioning and renumbering more.
  ///
  /// A left side at most half the right side's size is the one built instead (the right side
  /// probed in morsels): the same matches from a smaller table — TPC-H Q13 joins 150,000
  /// customers to 1.5 million orders. Codes then count the left side's distinct values, and a
  /// left value no right row has keeps its code (its group of right rows is empty).
  private static func probeIntegers(
    _ left: Column, _ right: Column, _ morsels: TableMorsels,
    _ leftKey: @Sendable (Int) -> Int64, _ rightKey: @Sendable (Int) -> Int64
  )
    -> (left: [Int32], right: [Int32], cardinality: Int)
  {
    if left.count <= right.count / 2 {
      let swapped = probe(right, left, morsels, into: IntegerCodeTable.self, rightKey, leftKey)
      return (swapped.right, swapped.left, swapped.cardinality)
    }
    guard morsels.workers > 1 && right.count / 4 >= morsels.rows else {
      return probe(left, right, morsels, into: IntegerCodeTable.self, leftKey, rightKey)
    }
    let table = PartitionedCodeTable(rows: right.count, partitions: morsels.workers, morsels: morsels) { row in
      right.isNull(row) ? nil : rightKey(row)
    }
    let rightCodes = TableMorsels.joined(
      morsels.map(right.count) { range in
        range.map { right.isNull($0) ? -1 : table.code(of: rightKey($0)) }
      })
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
  static func combined(
    left ids: [Int32], right rightIDs: [Int32], with codes: (left: [Int32], right: [Int32], cardinality: Int),
    morsels: TableMorsels
  ) -> (left: [Int32], right: [Int32], cardinality: Int) {
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

/// A table from join keys to dense codes in order of first insertion, read-only after the
/// build (morsels probe it from several threads).
protocol JoinKeyTable: Sendable {
  associatedtype Key
  init(capacity: Int)
  /// The code of `key`, giving it the next code (`count`) if new.
  mutating func insert(_ key: Key) -> Int32
  /// The code of `key`, or -1 if it was never inserted.
  func code(of key: Key) -> Int32
  var count: Int { get }
}

extension IntegerCodeTable: JoinKeyTable {}

/// `JoinKeyTable` over a `Dictionary`, for keys other than 64-bit integers.
struct HashedKeyTable<Key: Hashable & Sendable>: JoinKeyTable {
  private var codes: [Key: Int32]

  /// Grows as keys come (`capacity` counts the rows, not the distinct keys).
  init(capacity: Int) { codes = [:] }

  var count: Int { codes.count }

  mutating func insert(_ key: Key) -> Int32 {
    if let code = codes[key] { return code }
    let next = Int32(codes.count)
    codes[key] = next
    return next
  }

  func code(of key: Key) -> Int32 { codes[key] ?? -1 }

}
