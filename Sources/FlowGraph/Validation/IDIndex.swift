/// An index from string ids to positions in an array the caller owns (the document's nodes or
/// edges): an open-addressing table of 4-byte positions (linear probing, at most half full)
/// that compares against the caller's ids instead of storing the strings again. Each id is
/// hashed once per insert or lookup with `UnsafeIDHash` (seeded per large table, per process for
/// small ones).
///
/// 8–16 bytes per id where a `[String: Int32]` takes ~40, and 3–4× faster to build and query.
///
/// Invariants: every position in `table` is an id's position, stored in a bucket at or after
/// the id's home bucket with no empty bucket in between; no id (by `String ==`) is stored twice;
/// `count` counts the positions in `table`. Ids are never removed.
struct IDIndex: Sendable {
  private var table: [Int32]
  private let seed: UInt64
  /// How many ids are indexed.
  private(set) var count = 0

  /// An empty index with room for `capacity` ids.
  init(capacity: Int) {
    var size = 16
    while size < capacity &* 2 { size &<<= 1 }
    // A small table shares the process's seed and (empty) its buckets: a store validating one
    // edit makes a few of them, and a random seed is a system call (~0.4 µs) each.
    if size <= Self.smallSize {
      table = size == 16 ? Self.emptySmallTable : [Int32](repeating: -1, count: size)
      seed = Self.processSeed
    } else {
      table = [Int32](repeating: -1, count: size)
      seed = UInt64.random(in: UInt64.min...UInt64.max)
    }
  }

  /// Tables up to this many buckets use `processSeed`; larger ones draw their own.
  private static let smallSize = 4_096
  private static let processSeed = UInt64.random(in: UInt64.min...UInt64.max)
  private static let emptySmallTable = [Int32](repeating: -1, count: 16)

  /// An index of `ids`, each at its position; a repeated id keeps its first position.
  init(_ ids: some Collection<String>) {
    self.init(capacity: ids.count)
    let stored = Array(ids)
    for position in stored.indices { _ = insert(stored[position], at: Int32(position)) { stored[Int($0)] } }
  }

  /// Bytes held by the table.
  var allocatedBytes: Int { table.capacity * MemoryLayout<Int32>.stride }

  /// Indexes `id` at `position` unless an equal id is indexed already.
  ///
  /// - Parameter idAt: the id at a position indexed before.
  /// - Returns: the position of the equal id already indexed (then nothing changes), or `nil`.
  @inline(__always)
  mutating func insert(_ id: String, at position: Int32, idAt: (Int32) -> String) -> Int32? {
    if count &* 2 >= table.count { grow(idAt: idAt) }
    let mask = table.count &- 1
    var bucket = Int(truncatingIfNeeded: UnsafeIDHash.hash(id, seed: seed)) & mask
    while true {
      let stored = table[bucket]
      if stored < 0 {
        table[bucket] = position
        count &+= 1
        return nil
      }
      if idAt(stored) == id { return stored }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// The position of `id`, if indexed.
  ///
  /// - Parameter idAt: the id at an indexed position.
  @inline(__always)
  func position(of id: String, idAt: (Int32) -> String) -> Int32? {
    let mask = table.count &- 1
    var bucket = Int(truncatingIfNeeded: UnsafeIDHash.hash(id, seed: seed)) & mask
    while true {
      let stored = table[bucket]
      if stored < 0 { return nil }
      if idAt(stored) == id { return stored }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Indexes `count` ids (`id(k)` at position `k`) in order, as `insert(_:at:idAt:)` one by
  /// one, calling `duplicate(k, first)` for each id already indexed (at `first`). The buckets of a
  /// batch of 16 ids, and the ids they point at, are touched before any is inserted, so their
  /// cache misses overlap (see `positions(count:id:idAt:)`).
  @inline(__always)
  mutating func insertAll(count: Int, id: (Int) -> String, idAt: (Int32) -> String, duplicate: (Int, Int32) -> Void) {
    let batch = 16
    var buckets = [Int](repeating: 0, count: batch)
    var touched = 0
    var start = 0
    while start < count {
      let size = min(batch, count &- start)
      touched &+= touchBatch(start: start, size: size, id: id, idAt: idAt, buckets: &buckets)
      for k in 0..<size {
        if let first = insert(id(start &+ k), at: Int32(start &+ k), idAt: idAt) { duplicate(start &+ k, first) }
      }
      start &+= size
    }
    precondition(touched >= 0, "Internal inconsistency: negative id lengths")
  }

  /// Hashes ids `start ..< start + size` into their home `buckets` and touches the id each home
  /// bucket points at — loads only, so the cache misses of the batch overlap. Returns the bytes
  /// touched (kept by the callers so the loads are not optimized away).
  @inline(__always)
  private func touchBatch(
    start: Int, size: Int, id: (Int) -> String, idAt: (Int32) -> String,
    buckets: inout [Int]
  ) -> Int {
    let mask = table.count &- 1
    var touched = 0
    for k in 0..<size {
      buckets[k] = Int(truncatingIfNeeded: UnsafeIDHash.hash(id(start &+ k), seed: seed)) & mask
    }
    for k in 0..<size {
      let candidate = table[buckets[k]]
      if candidate >= 0 { touched &+= idAt(candidate).utf8.count }
    }
    return touched
  }

  /// The position of each of `count` ids (`id(k)` for `k` in `0..<count`), -1 for an id not
  /// indexed: `position(of:idAt:)` for many ids at once.
  ///
  /// A lookup in a large table is two cache misses (the bucket, then the id it points at) that
  /// depend on each other. Here the ids are hashed and their first candidates touched in batches
  /// of 16 before any is compared, so the misses of a batch overlap instead of following one
  /// another.
  @inline(__always)
  func positions(count: Int, id: (Int) -> String, idAt: (Int32) -> String) -> [Int32] {
    var result = [Int32](repeating: -1, count: count)
    let mask = table.count &- 1
    let batch = 16
    var buckets = [Int](repeating: 0, count: batch)
    var touched = 0
    var start = 0
    while start < count {
      let size = min(batch, count &- start)
      touched &+= touchBatch(start: start, size: size, id: id, idAt: idAt, buckets: &buckets)
      for k in 0..<size {
        let wanted = id(start &+ k)
        var bucket = buckets[k]
        while true {
          let stored = table[bucket]
          if stored < 0 { break }
          if idAt(stored) == wanted {
            result[start &+ k] = stored
            break
          }
          bucket = (bucket &+ 1) & mask
        }
      }
      start &+= size
    }
    // Keeps the touching loads (a sum of lengths is never negative).
    precondition(touched >= 0, "Internal inconsistency: negative id lengths")
    return result
  }

  /// Every indexed position, in table order.
  var positions: [Int32] { table.filter { $0 >= 0 } }

  /// Doubles the table and re-inserts every position.
  private mutating func grow(idAt: (Int32) -> String) {
    let old = table
    table = [Int32](repeating: -1, count: old.count &* 2)
    let mask = table.count &- 1
    for stored in old where stored >= 0 {
      var bucket = Int(truncatingIfNeeded: UnsafeIDHash.hash(idAt(stored), seed: seed)) & mask
      while table[bucket] >= 0 { bucket = (bucket &+ 1) & mask }
      table[bucket] = stored
    }
  }
}
