import Foundation

/// A seeded hash of string ids consistent with `String ==`, several times cheaper than
/// `String.hashValue` (SipHash) for the short ids documents use.
///
/// Swift compares strings by canonical equivalence, so `"\u{212A}"` (KELVIN SIGN) equals
/// `"K"`. ASCII strings are hashed over their bytes; any other string over the bytes of its
/// NFC form (Foundation's `precomposedStringWithCanonicalMapping`), which is ASCII exactly when
/// an ASCII string can equal it. Equal strings therefore always hash alike.
///
/// Why unsafe, and why it is sound: the bytes are read through the buffer
/// `withContiguousStorageIfAvailable` lends for the duration of the closure and never escape
/// it; 8-byte words are loaded unaligned only at offsets `i` with `i + 8 <= count`, and the tail
/// (fewer than 8 bytes) is read byte by byte below `count`.
///
/// The seed is random per table (`IDIndex`), so ids chosen to collide cannot be prepared in a
/// file: probe sequences stay short whatever the input.
enum UnsafeIDHash {
  /// The hash of `id` under `seed`.
  @inline(__always)
  static func hash(_ id: String, seed: UInt64) -> UInt64 {
    if let result = id.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64? in
      hashIfASCII(bytes, seed: seed)
    }), let result {
      return result
    }
    return slowHash(id, seed: seed)
  }

  /// Non-ASCII (or non-contiguous) strings: the bytes of the NFC form.
  @inline(never)
  private static func slowHash(_ id: String, seed: UInt64) -> UInt64 {
    let normalized = Array(id.precomposedStringWithCanonicalMapping.utf8)
    return normalized.withUnsafeBufferPointer { hashBytes($0, seed: seed) }
  }

  /// The hash of `bytes` when they are all ASCII, else `nil`.
  @inline(__always)
  private static func hashIfASCII(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64? {
    guard let base = bytes.baseAddress else { return hashBytes(bytes, seed: seed) }
    let count = bytes.count
    var high: UInt64 = 0
    var index = 0
    let raw = UnsafeRawPointer(base)
    while index &+ 8 <= count {
      high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < count {
      high |= UInt64(base[index])
      index &+= 1
    }
    guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
    return hashBytes(bytes, seed: seed)
  }

  /// A wyhash-style mix of the bytes, 8 at a time.
  @inline(__always)
  private static func hashBytes(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    let count = bytes.count
    var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
    guard let base = bytes.baseAddress else { return mix(state, 0xA076_1D64_78BD_642F) }
    let raw = UnsafeRawPointer(base)
    var index = 0
    while index &+ 8 <= count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      state = mix(state ^ word, 0xE703_7ED1_A0B4_28DB)
      index &+= 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while index < count {
      tail |= UInt64(base[index]) &<< shift
      shift &+= 8
      index &+= 1
    }
    return mix(state ^ tail, 0x8EBC_6AF0_9C88_C6E3 ^ seed)
  }

  /// The two halves of the 128-bit product, xored (wyhash's `mum`).
  @inline(__always)
  private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }
}
