import Foundation

/// The copies of the LZ77 decoders, in bulk instead of one byte at a time: LZ4's matches
/// appended to an array (`append`), and the pointer-level moves of the decoders that write in
/// place over their own buffers (Snappy's `UnsafeSnappyElements`, Zstandard's
/// `UnsafeZstdBlockCopy`): a 16-byte word move (`copyWord`) and a match repeated in pieces
/// (`repeatMatch`).
///
/// Invariants: the pointer-level moves touch only the bytes their callers checked (see each);
/// for `append`, every copy stays inside the array's initialized elements — a match's source
/// `[end − distance, end − distance + length)` starts inside what is written (`1 ≤ distance ≤
/// end`, where `end` is the output's count), and is appended from a scratch buffer of exactly
/// `length` bytes, all written before it is read; checked by a precondition as well as by
/// every caller, which throws first. No `memcpy` has overlapping ranges (an overlapping match,
/// `distance < length`, is built in pieces of at most the bytes already there, doubling).
enum UnsafeMatchCopy {
  /// Appends `length` bytes that repeat the output from `distance` bytes back (an overlapping
  /// match repeats its pattern), as if appended one byte at a time.
  ///
  /// - Precondition: `1 ≤ distance ≤ output.count`, `length ≥ 0`.
  static func append(_ output: inout [UInt8], distance: Int, length: Int) {
    precondition(distance >= 1 && distance <= output.count && length >= 0, "a match outside the output")
    guard length > 0 else { return }
    let source = output.count - distance
    if output.capacity < output.count + length {
      output.reserveCapacity(max(output.count + length, 2 * output.capacity))
    }
    // The match is built in a scratch buffer (its first `distance` bytes from the output, then
    // that pattern doubled in place), then appended in one copy.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { scratch in
      let base = scratch.baseAddress!
      let first = min(distance, length)
      output.withUnsafeBufferPointer { buffer in _ = memcpy(base, buffer.baseAddress! + source, first) }
      var filled = first
      while filled < length {
        let piece = min(filled, length - filled)
        memcpy(base + filled, base, piece)
        filled += piece
      }
      output.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
    }
  }

  /// Copies 16 bytes as two 8-byte words, the second loaded after the first is stored (so a
  /// match at least 8 bytes back reads what one byte at a time would).
  ///
  /// - Precondition (the caller's): 16 bytes are readable at `source` and writable at `target`.
  @inline(__always) static func copyWord(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
    target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
    target.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
  }

  /// Writes `length` bytes at `base + destination` that repeat the bytes from `base + source`
  /// (`source < destination`), as one byte at a time would: pieces of at most the bytes
  /// already between them, doubling, so no move overlaps.
  ///
  /// - Precondition (the caller's): `[source, destination)` is written and `[destination,
  ///   destination + length)` lies inside the buffer.
  static func repeatMatch(_ base: UnsafeMutablePointer<UInt8>, from source: Int, to destination: Int, length: Int) {
    var copied = 0
    while copied < length {
      let piece = min(length - copied, destination - source + copied)
      (base + destination + copied).update(from: base + source, count: piece)
      copied += piece
    }
  }
}
