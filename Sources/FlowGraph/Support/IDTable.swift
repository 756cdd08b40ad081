/// An index from string ids to dense slots that does not hold the strings: an open-addressing
/// hash table of 4-byte slots (linear probing, at most 3/4 full, backward-shift deletion) that
/// compares against the ids its owner already stores, which every operation is handed as
/// `idOf` (the id of an indexed slot). 5–11 bytes per entry where a `[String: Int32]` takes ~28.
///
/// Invariants: every slot in `table` is reachable from its id's home bucket along the probe
/// sequence with no empty bucket in between; no id is indexed twice; `count` counts the slots
/// in `table`. The owner keeps the id of every indexed slot unchanged while it is indexed.
package struct IDTable: Sendable {
  /// Buckets: a slot, or -1 for an empty bucket. Empty or a power of two long.
  private var table: [Int32] = []
  /// How many slots are indexed.
  package private(set) var count = 0

  /// An empty table.
  package init() {}

  /// A table of `slots`, each under its id.
  ///
  /// - Precondition: the ids are distinct.
  /// - Complexity: O(*n*).
  package init(slots: some Sequence<Int32>, count: Int, idOf: (Int32) -> String?) {
    grow(toHold: count, idOf: idOf)
    for slot in slots { place(slot, idOf: idOf) }
  }

  /// Bytes held by the buckets.
  package var allocatedBytes: Int { table.capacity * MemoryLayout<Int32>.stride }

  /// The slot indexed under `id`, if any.
  ///
  /// - Complexity: O(1) expected.
  package func slot(of id: String, idOf: (Int32) -> String?) -> Int32? {
    guard !table.isEmpty else { return nil }
    let mask = table.count - 1
    var bucket = id.hashValue & mask
    while true {
      let slot = table[bucket]
      if slot < 0 { return nil }
      if idOf(slot) == id { return slot }
      bucket = (bucket + 1) & mask
    }
  }

  /// Indexes `slot`, whose id (`idOf(slot)`) is not indexed yet.
  ///
  /// - Complexity: O(1) amortized.
  package mutating func insert(_ slot: Int32, idOf: (Int32) -> String?) {
    grow(toHold: count + 1, idOf: idOf)
    place(slot, idOf: idOf)
  }

  /// Unindexes `id`.
  ///
  /// - Returns: the slot it was indexed at, if any.
  /// - Complexity: O(1) expected.
  @discardableResult
  package mutating func remove(_ id: String, idOf: (Int32) -> String?) -> Int32? {
    guard !table.isEmpty else { return nil }
    let mask = table.count - 1
    var hole = id.hashValue & mask
    while true {
      let slot = table[hole]
      if slot < 0 { return nil }
      if idOf(slot) == id { break }
      hole = (hole + 1) & mask
    }
    let removed = table[hole]
    table[hole] = -1
    count -= 1
    // Backward shift: move later entries of the run into the hole when their home allows.
    var bucket = hole
    while true {
      bucket = (bucket + 1) & mask
      let slot = table[bucket]
      if slot < 0 { return removed }
      let home = (idOf(slot) ?? "").hashValue & mask
      if (hole - home) & mask <= (bucket - home) & mask {
        table[hole] = slot
        table[bucket] = -1
        hole = bucket
      }
    }
  }

  /// Calls `body` with every indexed slot, in bucket order.
  package func forEachSlot(_ body: (Int32) -> Void) {
    for slot in table where slot >= 0 { body(slot) }
  }

  /// Makes room for `count` slots without growing again.
  package mutating func reserveCapacity(_ count: Int, idOf: (Int32) -> String?) { grow(toHold: count, idOf: idOf) }

  private mutating func place(_ slot: Int32, idOf: (Int32) -> String?) {
    let mask = table.count - 1
    var bucket = (idOf(slot) ?? "").hashValue & mask
    while table[bucket] >= 0 { bucket = (bucket + 1) & mask }
    table[bucket] = slot
    count += 1
  }

  /// Keeps the table at most three quarters full.
  private mutating func grow(toHold count: Int, idOf: (Int32) -> String?) {
    guard count * 4 > table.count * 3 else { return }
    var capacity = max(16, table.count)
    while count * 4 > capacity * 3 { capacity *= 2 }
    let old = table
    table = [Int32](repeating: -1, count: capacity)
    self.count = 0
    for slot in old where slot >= 0 { place(slot, idOf: idOf) }
  }
}
