/// Bulk copies between typed column arrays and the bytes of a cache entry, so a column is
/// written and read as it lies in memory (one copy, no per-cell work).
///
/// Invariants: every copy is bounded by the source's byte count and the destination's
/// capacity, both checked here; only trivial types (`Int64`, `Double`, `UInt32`, `Int`,
/// `UInt64`) are copied, whose every bit pattern is a valid value, so no byte sequence read
/// back makes an invalid value. Byte order is the machine's (little-endian on every platform
/// the project builds for; the entry header records it).
enum UnsafeCacheBytes {
  /// Appends the in-memory bytes of `values` to `bytes`.
  static func append<T: FixedWidthInteger>(_ values: [T], to bytes: inout [UInt8]) {
    values.withUnsafeBytes { bytes.append(contentsOf: $0) }
  }

  /// Appends the in-memory bytes of `values` (IEEE 754 bit patterns) to `bytes`.
  static func append(_ values: [Double], to bytes: inout [UInt8]) {
    values.withUnsafeBytes { bytes.append(contentsOf: $0) }
  }

  /// `count` values of `T` from `bytes[start...]`, or `nil` when fewer bytes remain.
  static func integers<T: FixedWidthInteger>(_ type: T.Type, count: Int, from bytes: [UInt8], at start: Int) -> [T]? {
    let size = MemoryLayout<T>.stride
    guard count >= 0, start >= 0, count <= (bytes.count - start) / size else { return nil }
    guard count > 0 else { return [] }  // never an uninitialized empty array (see `doubles`)
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[start..<start + count * size]))
      }
      initialized = count
    }
  }

  /// `count` doubles from `bytes[start...]`, or `nil` when fewer bytes remain.
  static func doubles(count: Int, from bytes: [UInt8], at start: Int) -> [Double]? {
    let size = MemoryLayout<Double>.stride
    guard count >= 0, start >= 0, count <= (bytes.count - start) / size else { return nil }
    // An uninitialized array of capacity 0 writes its count into the shared empty storage, a
    // race ThreadSanitizer reports when two threads do it.
    guard count > 0 else { return [] }
    return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[start..<start + count * size]))
      }
      initialized = count
    }
  }

  /// A 64-bit checksum over a stream of bytes, fed in pieces: four lanes of 8-byte words
  /// (xor, odd multiply, rotation; each step a bijection of the lane, so changing any one word,
  /// or any bit, changes the result), then the tail bytes, the length and the lanes mixed.
  ///
  /// Invariant: every piece given to `add` but the last is a whole number of 32-byte blocks
  /// (`add` checks it and refuses otherwise); `finish` takes the last piece of any length.
  struct Checksum {
    private static let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
      0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344,
      0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89
    )
    private var length: UInt64 = 0

    init() {}

    @inline(__always) private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
      let mixed = (state ^ word) &* prime
      return mixed << 29 | mixed >> 35
    }

    /// Adds `bytes`, a whole number of 32-byte blocks.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
      precondition(bytes.count % 32 == 0, "checksum pieces are whole blocks")
      var (a, b, c, d) = lanes
      var offset = 0
      while offset < bytes.count {
        a = Self.mix(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        b = Self.mix(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        c = Self.mix(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
        d = Self.mix(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
        offset += 32
      }
      lanes = (a, b, c, d)
      length &+= UInt64(bytes.count)
    }

    /// The checksum after the last piece `tail` (any length).
    func finish(_ tail: UnsafeRawBufferPointer) -> UInt64 {
      var copy = self
      let blocks = tail.count / 32 * 32
      copy.add(UnsafeRawBufferPointer(rebasing: tail[0..<blocks]))
      var state = copy.lanes.0
      for index in blocks..<tail.count { state = Self.mix(state, UInt64(tail[index])) }
      state = Self.mix(state, copy.lanes.1)
      state = Self.mix(state, copy.lanes.2)
      state = Self.mix(state, copy.lanes.3)
      state = Self.mix(state, copy.length &+ UInt64(tail.count - blocks))
      return state ^ (state >> 32)
    }

    /// The checksum of `bytes[range]` in one piece.
    static func of(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
      bytes.withUnsafeBytes { Checksum().finish(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
  }
}
