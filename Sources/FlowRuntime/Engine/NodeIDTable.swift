/// The ids of the engine's nodes by dense index, and the index of each present id: an
/// open-addressing hash table of 4-byte node indices (linear probing, at most 3/4 full,
/// backward-shift deletion) that compares against `ids` instead of storing the strings again.
/// 5–11 bytes per node where a `[String: Int32]` takes ~28.
///
/// Invariants: every index in `table` is a node whose id hashes to a bucket at or before its
/// own along the probe sequence with no empty bucket in between; no id is indexed twice;
/// `indexedCount` counts the indices in `table`. A removed node keeps its id in `ids` and
/// leaves the table, so an id can come back as a new node.
struct NodeIDTable {
  /// Node ids by dense index (removed nodes included).
  private(set) var ids: [String] = []
  private var table: [Int32] = []
  private var indexedCount = 0

  init() {}

  /// A table of `ids`, each indexed at its position.
  init(_ ids: [String]) {
    self.ids = ids
    grow(toHold: ids.count)
    for node in ids.indices { insert(Int32(node)) }
  }

  /// Adds `id` as the next node (not indexed until set through the subscript).
  mutating func append(_ id: String) { ids.append(id) }

  mutating func reserveCapacity(_ count: Int) { ids.reserveCapacity(count) }

  /// Bytes held by the ids array and the table.
  var allocatedBytes: Int { ids.capacity * MemoryLayout<String>.stride + table.capacity * 4 }

  /// The node of id `id`; set a node (whose id is `id`) to index it, `nil` to unindex the id.
  subscript(id: String) -> Int32? {
    get {
      guard !table.isEmpty else { return nil }
      let mask = table.count - 1
      var bucket = id.hashValue & mask
      while true {
        let node = table[bucket]
        if node < 0 { return nil }
        if ids[Int(node)] == id { return node }
        bucket = (bucket + 1) & mask
      }
    }
    set {
      if let node = newValue {
        precondition(ids[Int(node)] == id, "Internal inconsistency: indexing node \(node) under another id")
        remove(id)
        grow(toHold: indexedCount + 1)
        insert(node)
      } else {
        remove(id)
      }
    }
  }

  private mutating func insert(_ node: Int32) {
    let mask = table.count - 1
    var bucket = ids[Int(node)].hashValue & mask
    while table[bucket] >= 0 { bucket = (bucket + 1) & mask }
    table[bucket] = node
    indexedCount += 1
  }

  private mutating func remove(_ id: String) {
    guard !table.isEmpty else { return }
    let mask = table.count - 1
    var hole = id.hashValue & mask
    while true {
      let node = table[hole]
      if node < 0 { return }
      if ids[Int(node)] == id { break }
      hole = (hole + 1) & mask
    }
    table[hole] = -1
    indexedCount -= 1
    // Backward shift: move later entries of the run into the hole when their home allows.
    var bucket = hole
    while true {
      bucket = (bucket + 1) & mask
      let node = table[bucket]
      if node < 0 { return }
      let home = ids[Int(node)].hashValue & mask
      let distanceToBucket = (bucket - home) & mask
      let distanceToHole = (hole - home) & mask
      if distanceToHole <= distanceToBucket {
        table[hole] = node
        table[bucket] = -1
        hole = bucket
      }
    }
  }

  /// Keeps the table at most three quarters full.
  private mutating func grow(toHold count: Int) {
    guard count * 4 > table.count * 3 else { return }
    var capacity = max(16, table.count)
    while count * 4 > capacity * 3 { capacity *= 2 }
    let old = table
    table = [Int32](repeating: -1, count: capacity)
    indexedCount = 0
    for node in old where node >= 0 { insert(node) }
  }
}
