/// What a Zstandard frame's output may not pass: the caller's bound on all the data, the end
/// of the content size the frame's header declares (if it does), and a block's maximum: 128
/// KiB, or the frame's window when smaller (RFC 8878 §3.1.1.2.3).
struct ZstdBound {
  let limit: Int
  let declaredEnd: Int?
  let blockMaximum: Int

  /// Where a block that starts at `start` (the output's count) must end, at most (at least
  /// `start`).
  func blockEnd(from start: Int) -> Int {
    max(start, min(start + blockMaximum, limit, declaredEnd ?? Int.max))
  }

  /// The error of a block whose bytes would reach `size` (the output's count after it), past
  /// `blockEnd`: past the caller's bound, past the declared content, or past a block's maximum.
  func error(reaching size: Int) -> CodecError {
    if size > limit { return CodecError("the data decompresses to more than \(limit) bytes") }
    if let declaredEnd, size > declaredEnd {
      return CodecError("a Zstandard frame's content runs past the size its header declares")
    }
    return CodecError("a Zstandard block decompresses to more than its maximum of \(blockMaximum) bytes")
  }
}
