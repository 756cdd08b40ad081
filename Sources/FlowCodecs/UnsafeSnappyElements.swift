/// The element loop of `Snappy.decompress` over the input's and the output's buffers: the
/// tags, literals and copies of a raw block, with short literals and short copies moved as
/// two 8-byte words instead of a `memcpy` call each (the bulk of a Parquet page's elements).
///
/// Invariants: `input` and `output` are borrowed for the call and never escaped. Every read
/// of the input is inside `input` (each tag's extra bytes and each literal are checked
/// against the bytes left before they are read; a copy's offset read as one 4-byte load only
/// where 4 bytes are left, masked to its 1, 2 or 4 bytes; a 16-byte literal load only where
/// 16 bytes are left); every write is inside `output` (each literal and copy is checked against the
/// room left; a 16-byte store only where 16 bytes are left); every copy's source starts at
/// least 1 byte back and no earlier than the output's start (`1 ≤ offset ≤ written`), and a
/// word copy only for `offset ≥ 8`, so each 8-byte load reads bytes already written (the
/// second word may read the first word's store, which is what a byte-by-byte copy reads).
/// The loop throws on the first element that breaks a check, before touching memory for it.
enum UnsafeSnappyElements {
  /// Decodes the elements of `input` into `output`, from the start; returns the bytes written.
  ///
  /// - Throws: `CodecError` naming the element's byte (counted from `input`'s start, plus
  ///   `base`) for a truncated element, a literal or copy past the output, or a copy before
  ///   the start.
  static func decode(_ input: UnsafeBufferPointer<UInt8>, base: Int, into output: UnsafeMutableBufferPointer<UInt8>)
    throws(CodecError) -> Int
  {
    guard let source = input.baseAddress else { return 0 }
    guard let target = output.baseAddress else {
      // An empty output: the same checks, over an empty buffer that has an address.
      var byte: UInt8 = 0
      return try withUnsafeMutablePointer(to: &byte) { (pointer) throws(CodecError) -> Int in
        try decode(input, base: base, into: UnsafeMutableBufferPointer(start: pointer, count: 0))
      }
    }
    let end = input.count, length = output.count
    var position = 0, written = 0
    while position < end {
      let tag = source[position]
      let at = base + position
      position += 1
      let kind = tag & 3
      if kind == 0 {
        var count = Int(tag >> 2) + 1
        if count > 60 {
          let extra = count - 60
          guard end - position >= extra else {
            throw CodecError("a Snappy literal's length ends early (at byte \(at))")
          }
          count = 0
          for index in 0..<extra { count |= Int(source[position + index]) << (8 * index) }
          position += extra
          count += 1
        }
        guard end - position >= count else { throw CodecError("a Snappy literal runs past the input (at byte \(at))") }
        guard length - written >= count else { throw tooLong(length, at) }
        if count <= 16, end - position >= 16, length - written >= 16 {
          UnsafeMatchCopy.copyWord(
            from: UnsafeRawPointer(source + position), to: UnsafeMutableRawPointer(target + written))
        } else {
          (target + written).update(from: source + position, count: count)
        }
        written += count
        position += count
        continue
      }
      // A copy, its offset in the 1, 2 or 4 bytes after the tag: the kinds told apart by
      // selects, not a branch each (the element kinds of a page's data follow no pattern).
      let extra = kind == 3 ? 4 : Int(kind)
      guard end - position >= extra else { throw CodecError("a Snappy copy ends early (at byte \(at))") }
      var word: UInt32 = 0
      if end - position >= 4 {
        word = UInt32(littleEndian: UnsafeRawPointer(source + position).loadUnaligned(as: UInt32.self))
      } else {
        for index in 0..<extra { word |= UInt32(source[position + index]) << (8 * index) }
      }
      position += extra
      let low = Int(word & (UInt32.max >> UInt32(32 - 8 * extra)))
      let count = kind == 1 ? 4 + Int((tag >> 2) & 7) : 1 + Int(tag >> 2)
      let offset = kind == 1 ? Int(tag >> 5) << 8 | low : low
      guard offset > 0, offset <= written else {
        throw CodecError("a Snappy copy reaches before the start of the data (offset \(offset), at byte \(at))")
      }
      guard length - written >= count else { throw tooLong(length, at) }
      if offset >= 8, count <= 16, length - written >= 16 {
        UnsafeMatchCopy.copyWord(
          from: UnsafeRawPointer(target + written - offset), to: UnsafeMutableRawPointer(target + written))
      } else {
        UnsafeMatchCopy.repeatMatch(target, from: written - offset, to: written, length: count)
      }
      written += count
    }
    return written
  }

  private static func tooLong(_ length: Int, _ at: Int) -> CodecError {
    CodecError("the Snappy block holds more than the \(length) bytes its header says (at byte \(at))")
  }
}
