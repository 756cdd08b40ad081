/// A join's build side hashed on several threads: the keys split by hash into partitions
/// (a power of two, at least the workers), each partition's `JoinKeyTable` built by one worker
/// over its rows in row order; then the codes renumbered in order of first appearance over all
/// rows — the very codes one table built serially gives (`JoinCodes`), so matches and their
/// order never depend on the thread count. Read-only after the build (morsels probe it).
///
/// Invariants: `tables[p]` holds the keys whose partition is `p`, each with its code of the
/// whole (renumbered after the build: `JoinKeyTable.renumber`); the codes are `0..<count`, in
/// order of first appearance.
struct PartitionedKeyTable<Table: JoinKeyTable>: Sendable {
  private let tables: [Table]
  private let shift: UInt64
  let count: Int

  /// The table of the keys of `rows` rows (`key(row)`, `nil` for a null cell that gets no
  /// code), built in `partitions` partitions (a power of two ≥ 2) on `morsels.workers` threads.
  init(rows: Int, partitions: Int, morsels: TableMorsels, _ key: @Sendable (Int) -> Table.Key?) {
    var bits: UInt64 = 1
    while 1 << bits < partitions { bits += 1 }
    let shift = 64 - bits, partitions = 1 << Int(bits)
    // Each row's partition (-1: null), and the rows per partition, in morsels.
    let parts = morsels.map(rows) { range -> (partitions: [Int8], counts: [Int]) in
      var assigned = [Int8](repeating: -1, count: range.count), counts = [Int](repeating: 0, count: partitions)
      for row in range {
        guard let value = key(row) else { continue }
        let partition = Int(Table.partitionHash(value) >> shift)
        assigned[row - range.lowerBound] = Int8(partition)
        counts[partition] += 1
      }
      return (assigned, counts)
    }
    let assigned = TableMorsels.joined(parts.map(\.partitions))
    let sizes = (0..<partitions).map { partition in parts.reduce(0) { $0 + $1.counts[partition] } }
    // Each partition's table on a worker, over its rows in row order; with its new keys' first rows.
    let built = morsels.map(items: partitions) { partition -> (table: Table, firstRows: [Int32]) in
      var table = Table(capacity: sizes[partition])
      var firstRows: [Int32] = []
      let mine = Int8(partition)
      for row in 0..<rows where assigned[row] == mine {
        if table.insert(key(row)!) == Int32(firstRows.count) { firstRows.append(Int32(row)) }
      }
      return (table, firstRows)
    }
    // Codes in order of first appearance: the first rows marked, then ranked in one pass.
    var isFirst = [Bool](repeating: false, count: rows)
    for part in built { for row in part.firstRows { isFirst[Int(row)] = true } }
    var rank = [Int32](repeating: -1, count: rows)
    var next: Int32 = 0
    for row in 0..<rows where isFirst[row] {
      rank[row] = next
      next += 1
    }
    let ranked = rank
    tables = morsels.map(items: partitions) { partition in
      var table = built[partition].table
      table.renumber(built[partition].firstRows.map { ranked[Int($0)] })
      return table
    }
    self.shift = shift
    count = Int(next)
  }

  /// The code of `key`, or -1 if it was never inserted.
  @inline(__always)
  func code(of key: Table.Key) -> Int32 {
    tables[Int(Table.partitionHash(key) >> shift)].code(of: key)
  }
}
