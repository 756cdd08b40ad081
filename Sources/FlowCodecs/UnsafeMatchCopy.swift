import Foundation

/// The copies of LZ77 decoders (Snappy, LZ4, Zstandard): a match copies bytes from earlier in
/// the output, a literal from the input, in bulk instead of one byte at a time — appended to
/// the output, or written at a position of an output made at its full length beforehand.
///
/// Invariants: every copy stays inside the arrays' initialized elements — a match's source
/// `[end − distance, end − distance + length)` starts inside what is written (`1 ≤ distance ≤
/// end`, where `end` is the write position), its destination is the `length` elements from
/// `end` (appended from a scratch buffer of exactly `length` bytes, all written before it is
/// read, or inside the output's count), a literal's source inside
/// its slice; each is checked by a precondition as well as by every caller, which throws
/// first. No `memcpy` has overlapping ranges (an overlapping match, `distance < length`, is
/// copied in pieces of at most the bytes already written, doubling each time).
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

  /// Writes `length` bytes at `output[end...]` that repeat the output from `distance` bytes
  /// before `end` (an overlapping match repeats its pattern), as one byte at a time would.
  ///
  /// - Precondition: `1 ≤ distance ≤ end`, `length ≥ 0`, `end + length ≤ output.count`.
  static func write(_ output: inout [UInt8], at end: Int, distance: Int, length: Int) {
    precondition(
      distance >= 1 && distance <= end && length >= 0 && output.count - end >= length, "a match outside the output")
    guard length > 0 else { return }
    output.withUnsafeMutableBufferPointer { buffer in
      copy(buffer.baseAddress!, from: end - distance, to: end, length: length)
    }
  }

  /// Writes the bytes of `literal` at `output[at...]`.
  ///
  /// - Precondition: `at ≥ 0`, `at + literal.count ≤ output.count`.
  static func write(_ output: inout [UInt8], at: Int, literal: ArraySlice<UInt8>) {
    precondition(at >= 0 && output.count - at >= literal.count, "a literal outside the output")
    guard !literal.isEmpty else { return }
    literal.withUnsafeBytes { source in
      output.withUnsafeMutableBufferPointer { buffer in
        _ = memcpy(buffer.baseAddress! + at, source.baseAddress!, source.count)
      }
    }
  }

  /// Copies `length` bytes from `base + source` to `base + destination` (`source <
  /// destination`, both ranges initialized) as one byte at a time would.
  private static func copy(_ base: UnsafeMutablePointer<UInt8>, from source: Int, to destination: Int, length: Int) {
    let distance = destination - source
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
