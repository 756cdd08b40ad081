/// The byte copies of a Zstandard block's sequences (RFC 8878 §3.1.1.4), once they are all
/// decoded: the block's bytes appended to the frame's output in one step, each sequence's
/// literals then its match written in place over buffers, short literals and far matches as
/// 16-byte words instead of a call per piece.
///
/// Invariants: `output` and `literals` are borrowed for the call and never escaped. The output
/// grows first by exactly the block's size (the sequences' literal and match lengths plus the
/// literals left), so every write lies inside it. Before a sequence's bytes are touched, its
/// literal run is checked to lie inside the literals left and its offset to be at least 1 and
/// to reach no further back than the frame's start (`precondition`: the decoder checked and
/// threw first). A 16-byte word move reads and writes only where 16 bytes are left in the
/// source and the destination; a match copied in words has an offset of at least 16, so each
/// word reads bytes already written; any other match is copied in pieces of at most the
/// distance, doubling (what one byte at a time gives).
enum UnsafeZstdBlockCopy {
  /// One decoded sequence.
  struct Sequence {
    var literalLength: Int
    var matchLength: Int
    var offset: Int
  }

  /// Appends the block to `output`: for each sequence its literals (taken in order from
  /// `literals`) and then its match, then the literals left.
  ///
  /// - Precondition: as the type says; `0 ≤ frameStart ≤ output.count`.
  static func append(_ sequences: [Sequence], literals: [UInt8], to output: inout [UInt8], frameStart: Int) {
    let start = output.count
    precondition(frameStart >= 0 && frameStart <= start, "Internal inconsistency: a frame past its output")
    var size = 0, taken = 0
    for sequence in sequences {
      precondition(
        sequence.literalLength >= 0 && sequence.matchLength >= 0 && sequence.literalLength <= literals.count - taken,
        "Internal inconsistency: a Zstandard sequence past its literals")
      size += sequence.literalLength + sequence.matchLength
      taken += sequence.literalLength
    }
    size += literals.count - taken
    guard size > 0 else { return }
    output.append(contentsOf: repeatElement(0, count: size))
    output.withUnsafeMutableBufferPointer { out in
      literals.withUnsafeBufferPointer { source in
        let base = out.baseAddress!, end = out.count
        var position = start, used = 0
        for sequence in sequences {
          let length = sequence.literalLength
          if length > 0 {
            if length <= 16, source.count - used >= 16, end - position >= 16 {
              UnsafeMatchCopy.copyWord(
                from: UnsafeRawPointer(source.baseAddress! + used), to: UnsafeMutableRawPointer(base + position))
            } else {
              (base + position).update(from: source.baseAddress! + used, count: length)
            }
            position += length
            used += length
          }
          let offset = sequence.offset, match = sequence.matchLength
          precondition(
            offset >= 1 && offset <= position - frameStart, "Internal inconsistency: a Zstandard match before the frame"
          )
          guard match > 0 else { continue }
          let from = position - offset
          if offset >= 16, end - position >= match + 15 {
            var copied = 0
            while copied < match {
              UnsafeMatchCopy.copyWord(
                from: UnsafeRawPointer(base + from + copied), to: UnsafeMutableRawPointer(base + position + copied))
              copied += 16
            }
          } else {
            UnsafeMatchCopy.repeatMatch(base, from: from, to: position, length: match)
          }
          position += match
        }
        let rest = source.count - used
        if rest > 0 { (base + position).update(from: source.baseAddress! + used, count: rest) }
      }
    }
  }
}
