/// A join's build side of 64-bit keys (`IntegerCodeTable` keys) hashed on several threads:
/// the keys split by hash into partitions (a power of two, at least the workers, at most 64),
/// each partition's `IntegerCodeTable` built by one worker over its rows in row order; then
/// the codes renumbered in order of first appearance over all rows — the very codes one table
/// built serially gives (`JoinCodes`), so matches and their order never depend on the thread
/// count. The partitions' slots are then laid end to end in two flat arrays, so a probe is one
/// hash, one partition offset and a linear probe, as in one table (an array of tables cost a
/// retain and release per probe, contended across threads). Read-only after the build.
///
/// Invariants: partition `p`'s slots are `keys`/`codes[offsets[p] ..< offsets[p] + masks[p] + 1]`,
/// placed by `IntegerCodeTable`'s own hash and linear probe (so `code(of:)` finds them); the
/// codes are `0..<count`, in order of first appearance; -1 marks an empty slot.
struct PartitionedCodeTable: Sendable {
  private let keys: [Int64]
  private let codes: [Int32]
  private let offsets: [Int]
  private let masks: [Int]
  private let shift: UInt64
  let count: Int

  /// The table of the keys of `rows` rows (`key(row)`, `nil` for a null cell that gets no
  /// code), built in `partitions` partitions (rounded up to a power of two, 2 to 64) on
  /// `morsels.workers` threads.
  init(rows: Int, partitions: Int, morsels: TableMorsels, _ key: @Sendable (Int) -> Int64?) {
    var bits: UInt64 = 1
    while 1 << bits < min(partitions, 64) { bits += 1 }
    let shift = 64 - bits, partitions = 1 << Int(bits)
    // Each row's partition (-1: null), and the rows per partition, in morsels.
    let parts = morsels.map(rows) { range -> (partitions: [Int8], counts: [Int]) in
      var assigned = [Int8](repeating: -1, count: range.count), counts = [Int](repeating: 0, count: partitions)
      for row in range {
        guard let value = key(row) else { continue }
        let partition = Int(IntegerCodeTable.hash(value) >> shift)
        assigned[row - range.lowerBound] = Int8(partition)
        counts[partition] += 1
      }
      return (assigned, counts)
    }
    let assigned = TableMorsels.joined(parts.map(\.partitions))
    let sizes = (0..<partitions).map { partition in parts.reduce(0) { $0 + $1.counts[partition] } }
    // Each partition's table on a worker, over its rows in row order; with its new keys' first rows.
    let built = morsels.map(items: partitions) { partition -> (table: IntegerCodeTable, firstRows: [Int32]) in
      var table = IntegerCodeTable(capacity: sizes[partition])
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
    let tables = morsels.map(items: partitions) { partition in
      var table = built[partition].table
      table.renumber(built[partition].firstRows.map { ranked[Int($0)] })
      return table.slots
    }
    var keys: [Int64] = [], codes: [Int32] = [], offsets: [Int] = [], masks: [Int] = []
    keys.reserveCapacity(tables.reduce(0) { $0 + $1.keys.count })
    codes.reserveCapacity(keys.capacity)
    for table in tables {
      offsets.append(keys.count)
      masks.append(table.keys.count - 1)
      keys.append(contentsOf: table.keys)
      codes.append(contentsOf: table.codes)
    }
    (self.keys, self.codes, self.offsets, self.masks) = (keys, codes, offsets, masks)
    self.shift = shift
    count = Int(next)
  }

  /// The code of `key`, or -1 if it was never inserted.
  @inline(__always)
  func code(of key: Int64) -> Int32 {
    let hash = IntegerCodeTable.hash(key)
    let partition = Int(hash >> shift)
    let base = offsets[partition], mask = masks[partition]
    var index = Int(truncatingIfNeeded: hash >> 32) & mask
    while true {
      let code = codes[base &+ index]
      if code < 0 || keys[base &+ index] == key { return code }
      index = (index &+ 1) & mask
    }
  }
}
