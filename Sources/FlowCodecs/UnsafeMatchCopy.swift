import Foundation

/// The copies of LZ77 decoders (Snappy, LZ4, Zstandard): a match appends bytes copied from
/// earlier in the output, in bulk instead of one byte at a time.
///
/// Invariants: every copy stays inside the array's initialized elements — the source range
/// `[count − distance, count − distance + length)` starts inside the output (`1 ≤ distance ≤
/// count`, checked by a precondition as well as by every caller, which throws first) and the
/// destination is the `length` elements appended (initialized to zero before they are
/// overwritten); no `memcpy` has overlapping ranges (an overlapping match, `distance < length`,
/// is copied in pieces of at most the bytes already written, doubling each time).
enum UnsafeMatchCopy {
  /// Appends `length` bytes that repeat the output from `distance` bytes back (an overlapping
  /// match repeats its pattern), as if appended one byte at a time.
  ///
  /// - Precondition: `1 ≤ distance ≤ output.count`, `length ≥ 0`.
  static func append(_ output: inout [UInt8], distance: Int, length: Int) {
    precondition(distance >= 1 && distance <= output.count && length >= 0, "a match outside the output")
    guard length > 0 else { return }
    let destination = output.count
    let source = destination - distance
    if output.capacity < destination + length { output.reserveCapacity(max(destination + length, 2 * output.capacity)) }
    output.append(contentsOf: repeatElement(0, count: length))
    output.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      if distance >= length {
        memcpy(base + destination, base + source, length)
        return
      }
      // The bytes from `source` repeat with period `distance`: a copy from `source` of at most
      // what lies before the write position stays correct while `copied` is a multiple of it.
      var copied = 0
      while copied < length {
        let piece = min(length - copied, distance + copied)
        memcpy(base + destination + copied, base + source, piece)
        copied += piece
      }
    }
  }
}
