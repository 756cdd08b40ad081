/// The byte copies of a Zstandard block's sequences (RFC 8878 §3.1.1.4), written in place as
/// they are decoded: the frame's output first grows by the block's room and a slack (`open`),
/// each sequence's literals and then its match are written over the buffer (`copy` in the
/// decoding loop, `write` for the sequences decoded after it), and the output is cut back to
/// the bytes written (`close`). Short literals and far matches move as 16-byte words instead
/// of a call per piece.
///
/// Invariants: `output` and `literals` are borrowed for a call and never escaped. A block's
/// bytes are written only below its end (`open`'s start plus room), which its callers check a
/// sequence against before it is copied (`write` checks by `precondition`: the decoder checked
/// and threw first), with its literal run inside the literals left and its offset at least 1
/// and reaching no further back than the frame's start. A word move reads 16 bytes only where
/// 16 are left in its source, and writes at most 15 bytes past the block's end, inside the
/// slack; a match copied in words has an offset of at least 16, so each word reads bytes
/// already written; any other match is copied in pieces of at most the distance, doubling
/// (what one byte at a time gives).
enum UnsafeZstdBlockCopy {
  /// One decoded sequence.
  struct Sequence {
    var literalLength: Int
    var matchLength: Int
    var offset: Int
  }

  /// Bytes past a block's end that the word moves may write (then cut off).
  static let slack = 32

  /// Grows `output` by `room` bytes and the slack: the block's bytes lie below its end, the
  /// count before the call plus `room`.
  static func open(_ output: inout [UInt8], room: Int) {
    precondition(room >= 0, "Internal inconsistency: a Zstandard block with no room")
    output.append(contentsOf: repeatElement(0, count: room + slack))
  }

  /// Cuts `output` back to the block's bytes written, those before `position`.
  static func close(_ output: inout [UInt8], at position: Int) {
    precondition(position >= 0 && position <= output.count, "Internal inconsistency: a block past its output")
    output.removeLast(output.count - position)
  }

  /// Writes `sequences` at `position` (moved past them), their literals taken in order from
  /// `literals[used...]` (`used` moved past them); a sequence with no match may have any offset.
  ///
  /// - Precondition: as the type says: every sequence lies below `end`, inside the literals
  ///   left, and its match after `frameStart`; `end` is `open`'s and `0 ≤ frameStart ≤ position`.
  static func write(
    _ sequences: [Sequence], literals: [UInt8], used: inout Int, into output: inout [UInt8], at position: inout Int,
    end: Int, frameStart: Int
  ) {
    precondition(
      frameStart >= 0 && frameStart <= position && end + slack <= output.count,
      "Internal inconsistency: a Zstandard block past its output")
    output.withUnsafeMutableBufferPointer { out in
      literals.withUnsafeBufferPointer { source in
        for sequence in sequences {
          let (length, match, offset) = (sequence.literalLength, sequence.matchLength, sequence.offset)
          precondition(
            length >= 0 && match >= 0 && length <= source.count - used && length + match <= end - position,
            "Internal inconsistency: a Zstandard sequence past its block")
          precondition(
            match == 0 || (offset >= 1 && offset <= position + length - frameStart),
            "Internal inconsistency: a Zstandard match before the frame")
          copy(
            length, match: match, offset: offset, from: source.baseAddress!, used: used, of: source.count,
            to: out.baseAddress!, at: position)
          position += length + match
          used += length
        }
      }
    }
  }

  /// Writes `length` literals from `literals + used` (of `count`) at `base + position`, then a
  /// match of `match` bytes from `offset` bytes back.
  ///
  /// - Precondition (the caller's): as the type says.
  @inline(__always)
  static func copy(
    _ length: Int, match: Int, offset: Int, from literals: UnsafePointer<UInt8>, used: Int, of count: Int,
    to base: UnsafeMutablePointer<UInt8>, at position: Int
  ) {
    if length > 0 {
      if length <= 16, count &- used >= 16 {
        UnsafeMatchCopy.copyWord(
          from: UnsafeRawPointer(literals + used), to: UnsafeMutableRawPointer(base + position))
      } else {
        (base + position).update(from: literals + used, count: length)
      }
    }
    let to = position &+ length
    guard match > 0 else { return }
    if offset >= 16 {
      let from = base + (to &- offset), target = base + to
      var copied = 0
      repeat {
        UnsafeMatchCopy.copyWord(from: UnsafeRawPointer(from + copied), to: UnsafeMutableRawPointer(target + copied))
        copied &+= 16
      } while copied < match
    } else {
      UnsafeMatchCopy.repeatMatch(base, from: to &- offset, to: to, length: match)
    }
  }
}
