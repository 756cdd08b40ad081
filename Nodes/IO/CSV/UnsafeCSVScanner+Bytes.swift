// Invariants: the counts load 8-byte words only at offsets `i` with `i + 8 <= end <= buffer.count`
// (checked by a precondition on the range), the rest byte by byte in bounds; `unescape`,
// `field(_:equals:)` and `string` read only inside a field the scanner reported
// (`0 <= start <= end <= buffer.count`). Nothing here writes the buffer.

extension UnsafeCSVScanner {
  /// The number of LF bytes in `buffer[start...]` (a vectorizable count, no quote tracking).
  static func lineBreaks(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    count(newline, in: buffer, from: start)
  }

  /// The number of `byte`s in `buffer[start..<end]` (eight bytes at a time).
  static func count(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) -> Int {
    var total = 0
    var i = start
    let count = end ?? buffer.count
    precondition(start >= 0 && start <= count && count <= buffer.count, "range in the buffer")
    // Eight bytes at a time: a byte of `x` is 0 where the word has `byte`; the high bit of each
    // byte of `y` is set exactly for the zero bytes of `x` (no carries between bytes).
    if let base = buffer.baseAddress {
      let raw = UnsafeRawPointer(base)
      let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, pattern = UInt64(byte) &* 0x0101_0101_0101_0101
      while i &+ 8 <= count {
        let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
        let y = ~(((x & low) &+ low) | x | low)
        total &+= y.nonzeroBitCount
        i &+= 8
      }
    }
    while i < count {
      total &+= buffer[i] == byte ? 1 : 0
      i &+= 1
    }
    return total
  }

  /// The content of `field` with `""` escapes collapsed, appended to `output`.
  func unescape(_ field: CSVField, into output: inout [UInt8]) {
    output.removeAll(keepingCapacity: true)
    var i = field.start
    while i < field.end {
      let byte = buffer[i]
      output.append(byte)
      i += byte == Self.quote ? 2 : 1
    }
  }

  /// Whether `field`'s bytes equal `token`.
  func field(_ field: CSVField, equals token: [UInt8]) -> Bool {
    guard field.end - field.start == token.count else { return false }
    var j = 0
    for i in field.start..<field.end {
      if buffer[i] != token[j] { return false }
      j += 1
    }
    return true
  }

  /// The field's content as a string (escapes collapsed).
  func string(_ field: CSVField) -> String {
    if field.escaped {
      var bytes: [UInt8] = []
      unescape(field, into: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: UnsafeBufferPointer(rebasing: buffer[field.start..<field.end]), as: UTF8.self)
  }
}
