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
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count * size]))
      }
      initialized = count
    }
  }

  /// `count` doubles from `bytes[start...]`, or `nil` when fewer bytes remain.
  static func doubles(count: Int, from bytes: [UInt8], at start: Int) -> [Double]? {
    let size = MemoryLayout<Double>.stride
    guard count >= 0, start >= 0, count <= (bytes.count - start) / size else { return nil }
    return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count * size]))
      }
      initialized = count
    }
  }

  /// A 64-bit checksum of `bytes[start...]`, 8 bytes at a time: each word is mixed in with a
  /// xor, an odd multiply and a rotation (each step a bijection of the running state, so
  /// changing any one word, or any bit, changes the result).
  static func checksum(_ bytes: [UInt8], from start: Int) -> UInt64 {
    guard start >= 0, start <= bytes.count else { return 0 }
    let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
    var state: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count - start)
    bytes.withUnsafeBytes { raw in
      let region = UnsafeRawBufferPointer(rebasing: raw[start...])
      let words = region.count / 8
      for index in 0..<words {
        let word = UInt64(littleEndian: region.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        state = ((state ^ word) &* prime)
        state = state << 29 | state >> 35
      }
      for index in words * 8..<region.count {
        state = ((state ^ UInt64(region[index])) &* prime)
        state = state << 29 | state >> 35
      }
    }
    return state ^ (state >> 32)
  }
}
