/// An open-addressing hash table from 64-bit keys to dense codes, for join keys that are
/// integers (numbers by their normalized bit pattern, pairs of codes): one multiply and a
/// linear probe per lookup over two flat arrays, no `Hashable` boxing. Read-only after the
/// build, so morsels probe it from several threads.
///
/// Invariants: the capacity is a power of two at least twice the number of keys (so a probe
/// ends at an empty slot); `codes[slot] == -1` marks an empty slot.
struct IntegerCodeTable: Sendable {
  private var keys: [Int64]
  private var codes: [Int32]
  private let mask: Int
  private(set) var count = 0

  /// A table for at most `capacity` keys.
  init(capacity: Int) {
    var size = 16
    while size < 2 * max(1, capacity) { size <<= 1 }
    keys = [Int64](repeating: 0, count: size)
    codes = [Int32](repeating: -1, count: size)
    mask = size - 1
  }

  /// The multiplicative hash of `key`: bits from 32 up pick the slot (`PartitionedCodeTable`
  /// takes the partition from the top bits: disjoint below 2²⁶ slots per partition; beyond,
  /// shared bits make probes longer, never wrong).
  @inline(__always)
  static func hash(_ key: Int64) -> UInt64 { UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 }

  @inline(__always)
  private func slot(_ key: Int64) -> Int {
    Int(truncatingIfNeeded: Self.hash(key) >> 32) & mask
  }

  /// The slots, for `PartitionedCodeTable` (keys and codes; the count is a power of two).
  var slots: (keys: [Int64], codes: [Int32]) { (keys, codes) }

  /// The code of `key`, giving it the next code (`count`, in order of first insertion) if new.
  ///
  /// - Precondition: fewer than `capacity` keys are inserted.
  mutating func insert(_ key: Int64) -> Int32 {
    var index = slot(key)
    while true {
      let code = codes[index]
      if code < 0 {
        keys[index] = key
        codes[index] = Int32(count)
        count += 1
        return codes[index]
      }
      if keys[index] == key { return code }
      index = (index &+ 1) & mask
    }
  }

  /// Replaces each code `c` by `codes[c]` (after the build: the table is then only probed).
  mutating func renumber(_ codes: [Int32]) {
    for slot in self.codes.indices where self.codes[slot] >= 0 { self.codes[slot] = codes[Int(self.codes[slot])] }
  }

  /// The code of `key`, or -1 if it was never inserted.
  @inline(__always)
  func code(of key: Int64) -> Int32 {
    var index = slot(key)
    while true {
      let code = codes[index]
      if code < 0 || keys[index] == key { return code }
      index = (index &+ 1) & mask
    }
  }
}
