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
/// Its fast path runs only while 21 input bytes and 64 output bytes are left, which covers a
/// tag, its 4-byte offset load and a 16-byte literal load, and the longest copy (64 bytes)
/// or a 16-byte store; there each copy's offset is still checked against the bytes written.
enum UnsafeSnappyElements {
  /// The bytes the elements of `input` decode to, at most `length` of them, in an array
  /// allocated at `length` without a zeroing pass: the elements write from its start with no
  /// gap and read only bytes already written, and the array counts only the bytes written.
  ///
  /// - Throws: `CodecError` as `decode` does.
  static func decoded(_ input: ArraySlice<UInt8>, base: Int, length: Int) throws(CodecError) -> [UInt8] {
    // An empty block: its elements still checked (any that writes throws), over an empty
    // output (an uninitialized array of capacity 0 would write its count into the shared
    // empty storage).
    guard length > 0 else {
      _ = try input.withUnsafeBufferPointer { (elements) throws(CodecError) -> Int in
        try decode(elements, base: base, into: UnsafeMutableBufferPointer(start: nil, count: 0))
      }
      return []
    }
    var failure: CodecError?
    let output = input.withUnsafeBufferPointer { elements in
      [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
        do throws(CodecError) {
          initialized = try decode(elements, base: base, into: buffer)
        } catch {
          failure = error
          initialized = 0
        }
      }
    }
    if let failure { throw failure }
    return output
  }

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
      // Far from both ends (21 input bytes: a tag, 4 offset bytes and a 16-byte literal; 64
      // output bytes: the longest copy), an element needs only its offset checked: short
      // literals and copies without per-element room checks.
      while end - position >= 21, length - written >= 64 {
        let tag = source[position]
        let kind = tag & 3
        if kind == 0 {
          let count = Int(tag >> 2) + 1
          guard count <= 16 else { break }
          UnsafeMatchCopy.copyWord(
            from: UnsafeRawPointer(source + position + 1), to: UnsafeMutableRawPointer(target + written))
          position += 1 + count
          written += count
          continue
        }
        let word = UInt32(littleEndian: UnsafeRawPointer(source + position + 1).loadUnaligned(as: UInt32.self))
        let extra = kind == 3 ? 4 : Int(kind)
        let low = Int(word & (UInt32.max >> UInt32(32 - 8 * extra)))
        let count = kind == 1 ? 4 + Int((tag >> 2) & 7) : 1 + Int(tag >> 2)
        let offset = kind == 1 ? Int(tag >> 5) << 8 | low : low
        guard offset > 0, offset <= written else {
          throw CodecError(
            "a Snappy copy reaches before the start of the data (offset \(offset), at byte \(base + position))")
        }
        if offset >= 8, count <= 16 {
          UnsafeMatchCopy.copyWord(
            from: UnsafeRawPointer(target + written - offset), to: UnsafeMutableRawPointer(target + written))
        } else {
          UnsafeMatchCopy.repeatMatch(target, from: written - offset, to: written, length: count)
        }
        position += 1 + extra
        written += count
      }
      guard position < end else { break }
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
