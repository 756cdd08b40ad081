import Foundation

/// The matches of the LZ4 decoder: a match copies bytes from earlier in the output, appended in
/// bulk instead of one byte at a time. (Snappy, whose output is made at its full length first,
/// writes in place, `UnsafeSnappyElements`; Zstandard copies a block's sequences in one step,
/// `UnsafeZstdBlockCopy`.)
///
/// Invariants: every copy stays inside the array's initialized elements — a match's source
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
}
