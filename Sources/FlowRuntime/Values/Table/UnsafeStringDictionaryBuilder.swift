// Invariants: `slots.count` is a power of two larger than twice the entries longer than 16
// bytes (`longCount`); a slot holds 0 (empty) or the entry + 1 of such an entry.
// `shortSlots.count` is a power of two larger than twice the entries of at most 16 bytes
// (`shortCount`), `shortShift` is 64 − its log2, and a short slot is empty (tag 0) or holds an
// entry + 1 with its length and packed keys (`packed`, `packedPair`: one-to-one for each length).
// `singleBytes[b]` is 0 or the entry + 1 of the one-byte string b; `hashes[e]` is entry e's
// hash (0 for a short entry); `entries` is flat with distinct strings. The only unsafe access
// reads the caller's field bytes (an `UnsafeRawBufferPointer` valid for the call, never kept;
// packing loads 2-, 4- or 8-byte words only inside it, at offsets 0 and count − 2, count − 4 or
// count − 8)
// and, for an `ArraySlice`, its bytes through `withUnsafeBytes` for the duration of the call.

/// Builds a string dictionary (`StringColumn`'s dictionary layout): each distinct UTF-8 string
/// gets the next code, in order of first appearance, found again by an open-addressing hash of
/// its bytes — no `String`, no allocation per lookup. A string of at most 16 bytes (a code, a
/// country, a carrier, a date: most dictionary columns) is looked up by its bytes packed into
/// two 64-bit keys, compared with the slot's keys and length in one go, and hashed with one
/// multiply (`shortCode`).
package struct StringDictionaryBuilder: Sendable {
  /// The distinct strings so far, in order of first appearance (flat).
  package private(set) var entries = StringColumn()
  private var hashes: [UInt64] = []
  private var slots = [UInt32](repeating: 0, count: 64)
  /// The code + 1 of each one-byte string seen (0: not seen): such a cell is one load, no hash.
  private var singleBytes = [UInt32](repeating: 0, count: 256)
  /// The table of the entries of at most 16 bytes, probed from the top bits of the keys' product.
  private var shortSlots = [ShortSlot](repeating: ShortSlot(), count: 64)
  private var shortShift: UInt64 = 58
  private var shortCount = 0
  /// The entries of more than 16 bytes (in `slots`).
  private var longCount = 0
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
    let length = field.count
    if length == 1 {
      let known = singleBytes[Int(field[0])]
      if known != 0 { return known &- 1 }
      guard let code = shortCode(of: field, key: UInt64(field[0]), key2: 0) else { return nil }
      singleBytes[Int(field[0])] = code &+ 1
      return code
    }
    if length <= 8 { return shortCode(of: field, key: Self.packed(field), key2: 0) }
    if length <= 16 {
      let (key, key2) = Self.packedPair(field)
      return shortCode(of: field, key: key, key2: key2)
    }
    return insertingCode(of: field)
  }

  /// One slot of the short table: an entry's packed keys, length, and entry + 1 (0: empty).
  struct ShortSlot {
    var key: UInt64 = 0
    var key2: UInt64 = 0
    var length: UInt32 = 0
    var tag: UInt32 = 0
  }

  /// The bytes of `field` (at most 8) in one word: two overlapping loads that together cover
  /// every byte, so two strings of the same length have the same key only if they are equal.
  @inline(__always)
  static func packed(_ field: UnsafeRawBufferPointer) -> UInt64 {
    let count = field.count
    if count >= 4 {
      let low = UInt64(field.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
      let high = UInt64(field.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
      return low | high &<< 32
    }
    if count >= 2 {
      let low = UInt64(field.loadUnaligned(fromByteOffset: 0, as: UInt16.self))
      let high = UInt64(field.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
      return low | high &<< 16
    }
    return count == 1 ? UInt64(field[0]) : 0
  }

  /// The bytes of `field` (9 to 16) in two words: the first 8 and the last 8, which overlap
  /// and together cover every byte.
  @inline(__always)
  static func packedPair(_ field: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    (
      field.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
      field.loadUnaligned(fromByteOffset: field.count &- 8, as: UInt64.self)
    )
  }

  /// `code(of:)` for a field of at most 16 bytes whose packed keys are `key` and `key2` (0 up
  /// to 8 bytes).
  @inline(__always)
  private mutating func shortCode(of field: UnsafeRawBufferPointer, key: UInt64, key2: UInt64) -> UInt32? {
    let length = UInt32(truncatingIfNeeded: field.count)
    let mask = shortSlots.count &- 1
    var slot = shortHome(key, key2, length)
    while true {
      let stored = shortSlots[slot]
      if stored.tag == 0 { break }
      if stored.key == key && stored.key2 == key2 && stored.length == length { return stored.tag &- 1 }
      slot = (slot &+ 1) & mask
    }
    let entry = count
    guard entry < limit else { return nil }
    entries.storedBytes.append(contentsOf: field)
    entries.storedOffsets.append(entries.storedBytes.count)
    hashes.append(0)
    shortSlots[slot] = ShortSlot(key: key, key2: key2, length: length, tag: UInt32(truncatingIfNeeded: entry &+ 1))
    shortCount &+= 1
    if shortCount &* 2 >= shortSlots.count { growShort() }
    return UInt32(truncatingIfNeeded: entry)
  }

  /// The short table's first slot for keys of `length` bytes: the top bits of one multiply.
  @inline(__always)
  private func shortHome(_ key: UInt64, _ key2: UInt64, _ length: UInt32) -> Int {
    let folded = key ^ (key2 &* 0xC2B2_AE3D_27D4_EB4F) ^ (key2 &>> 29)
    return Int(truncatingIfNeeded: ((folded &+ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15) &>> shortShift)
  }

  private mutating func growShort() {
    let old = shortSlots
    shortSlots = [ShortSlot](repeating: ShortSlot(), count: old.count * 2)
    shortShift -= 1
    let mask = shortSlots.count &- 1
    for stored in old where stored.tag != 0 {
      var slot = shortHome(stored.key, stored.key2, stored.length)
      while shortSlots[slot].tag != 0 { slot = (slot &+ 1) & mask }
      shortSlots[slot] = stored
    }
  }

  /// `code(of:)` through the hash table (a field of more than 16 bytes).
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
    longCount &+= 1
    if longCount &* 2 >= slots.count { grow() }
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
    for entry in hashes.indices where entries.storedOffsets[entry &+ 1] &- entries.storedOffsets[entry] > 16 {
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
