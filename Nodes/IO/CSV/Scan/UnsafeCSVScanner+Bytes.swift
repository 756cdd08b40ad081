// Invariants: the counts load 16-byte vectors only at offsets `i` with `i + 16 <= end <= buffer.count`
// (checked by a precondition on the range), the rest byte by byte in bounds; `unescape`,
// `field(_:equals:)` and `string` read only inside a field the scanner reported
// (`0 <= start <= end <= buffer.count`). Nothing here writes the buffer.

extension UnsafeCSVScanner {
  /// The number of LF bytes in `buffer[start...]` (a vectorizable count, no quote tracking).
  static func lineBreaks(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    count(newline, in: buffer, from: start)
  }

  /// The number of `byte`s in `buffer[start..<end]` (sixteen bytes at a time: a compare and a
  /// subtract per 16 bytes into per-lane counters, summed every 255 rounds before a lane can
  /// wrap; no population count, which baseline x86-64 lacks).
  static func count(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int? = nil) -> Int {
    var total = 0
    var i = start
    let count = end ?? buffer.count
    precondition(start >= 0 && start <= count && count <= buffer.count, "range in the buffer")
    if let base = buffer.baseAddress {
      let raw = UnsafeRawPointer(base)
      let pattern = SIMD16<UInt8>(repeating: byte)
      while i &+ 16 <= count {
        let rounds = Swift.min(255, (count &- i) &>> 4)
        var lanes = SIMD16<UInt8>()
        for _ in 0..<rounds {
          // A match is 0xFF (-1): subtracting it adds one to its lane.
          lanes &-= unsafeBitCast(
            raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self) .== pattern, to: SIMD16<UInt8>.self)
          i &+= 16
        }
        total &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
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
