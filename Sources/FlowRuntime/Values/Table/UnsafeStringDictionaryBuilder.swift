// Invariants: `slots.count` is a power of two larger than twice the entries; a slot holds 0
// (empty) or an entry + 1; `singleBytes[b]` is 0 or the entry + 1 of the one-byte string b; `hashes[e]` is entry e's hash; `entries` is flat with distinct
// strings. The only unsafe access reads the caller's field bytes (an
// `UnsafeRawBufferPointer` valid for the call, never kept) and, for an `ArraySlice`, its bytes
// through `withUnsafeBytes` for the duration of the call.

/// Builds a string dictionary (`StringColumn`'s dictionary layout): each distinct UTF-8 string
/// gets the next code, in order of first appearance, found again by an open-addressing hash of
/// its bytes — no `String`, no allocation per lookup.
package struct StringDictionaryBuilder: Sendable {
  /// The distinct strings so far, in order of first appearance (flat).
  package private(set) var entries = StringColumn()
  private var hashes: [UInt64] = []
  private var slots = [UInt32](repeating: 0, count: 64)
  /// The code + 1 of each one-byte string seen (0: not seen): such a cell is one load, no hash.
  private var singleBytes = [UInt32](repeating: 0, count: 256)
  /// The most entries; a new string past it gets no code.
  package let limit: Int

  package init(limit: Int) {
    precondition(limit >= 0 && limit < Int(UInt32.max), "a dictionary limit fits a code")
    self.limit = limit
  }

  /// The number of entries.
  @inlinable package var count: Int { entries.storedOffsets.count - 1 }

  /// The code of the string with UTF-8 bytes `field` (a new entry if it is new), or `nil` if it
  /// is new and the dictionary holds `limit` entries already.
  @inline(__always)
  package mutating func code(of field: UnsafeRawBufferPointer) -> UInt32? {
    if field.count == 1 {
      let known = singleBytes[Int(field[0])]
      if known != 0 { return known &- 1 }
      guard let code = insertingCode(of: field) else { return nil }
      singleBytes[Int(field[0])] = code &+ 1
      return code
    }
    return insertingCode(of: field)
  }

  /// `code(of:)` through the hash table.
  @inline(__always)
  private mutating func insertingCode(of field: UnsafeRawBufferPointer) -> UInt32? {
    let hash = Self.hash(field)
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let stored = slots[slot]
      if stored == 0 { break }
      let entry = Int(stored &- 1)
      if hashes[entry] == hash && equals(entry, field) { return UInt32(truncatingIfNeeded: entry) }
      slot = (slot &+ 1) & mask
    }
    let entry = count
    guard entry < limit else { return nil }
    entries.storedBytes.append(contentsOf: field)
    entries.storedOffsets.append(entries.storedBytes.count)
    hashes.append(hash)
    slots[slot] = UInt32(truncatingIfNeeded: entry &+ 1)
    if (entry &+ 1) &* 2 >= slots.count { grow() }
    return UInt32(truncatingIfNeeded: entry)
  }

  /// `code(of:)` for bytes in an array.
  package mutating func code(of field: ArraySlice<UInt8>) -> UInt32? {
    field.withUnsafeBytes { code(of: $0) }
  }

  @inline(__always)
  private func equals(_ entry: Int, _ field: UnsafeRawBufferPointer) -> Bool {
    let start = entries.storedOffsets[entry], length = entries.storedOffsets[entry &+ 1] &- start
    guard length == field.count else { return false }
    var index = 0
    while index < length {
      if entries.storedBytes[start &+ index] != field[index] { return false }
      index &+= 1
    }
    return true
  }

  private mutating func grow() {
    slots = [UInt32](repeating: 0, count: slots.count * 2)
    let mask = slots.count &- 1
    for entry in hashes.indices {
      var slot = Int(truncatingIfNeeded: hashes[entry]) & mask
      while slots[slot] != 0 { slot = (slot &+ 1) & mask }
      slots[slot] = UInt32(truncatingIfNeeded: entry &+ 1)
    }
  }

  /// A 64-bit hash of `bytes`, eight at a time (multiply-xorshift mixing).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let count = bytes.count
    var hash = 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: count &+ 1)
    var index = 0
    while index &+ 8 <= count {
      hash = mix(hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      index &+= 8
    }
    if index < count {
      var tail: UInt64 = 0, shift: UInt64 = 0
      while index < count {
        tail |= UInt64(bytes[index]) << shift
        shift &+= 8
        index &+= 1
      }
      hash = mix(hash ^ tail)
    }
    return mix(hash)
  }

  @inline(__always)
  static func mix(_ value: UInt64) -> UInt64 {
    var x = value &* 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 32
    return x &* 0xC4CE_B9FE_1A85_EC53 ^ (x >> 29)
  }
}
