// The bit reader of `Inflate`: DEFLATE packs bits from the least significant bit of each byte.
//
// Invariants: `buffer` holds `count` (≤ 64) not yet consumed bits in its low bits, read from
// `input[..<position]`; `position ≤ input.count`. Every read checks that enough bits remain,
// so a truncated stream throws instead of reading past the end.

struct InflateBits {
  let input: [UInt8]
  var position: Int
  var buffer: UInt64 = 0
  var count = 0

  init(_ input: [UInt8], at position: Int) {
    self.input = input
    self.position = position
  }

  /// Tops the buffer up to at least 57 bits, or with every byte left.
  @inline(__always) mutating func refill() {
    while count <= 56, position < input.count {
      buffer |= UInt64(input[position]) << UInt64(count)
      position += 1
      count += 8
    }
  }

  /// The next `n` (≤ 32) bits as a number, first bit lowest.
  @inline(__always) mutating func take(_ n: Int) throws(CodecError) -> Int {
    if count < n {
      refill()
      guard count >= n else { throw truncated }
    }
    let value = Int(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1))
    buffer >>= UInt64(n)
    count -= n
    return value
  }

  /// Drops the bits up to the next byte boundary (stored blocks start there).
  mutating func alignToByte() {
    let drop = count % 8
    buffer >>= UInt64(drop)
    count -= drop
  }

  /// The byte offset just past the last bit consumed (after `alignToByte()`).
  var byteOffset: Int { position - count / 8 }

  var truncated: CodecError { CodecError("the compressed data ends early (at byte \(input.count))") }

  /// Copies `length` bytes of a stored block into `output` (the reader is byte-aligned).
  mutating func copyBytes(_ length: Int, into output: inout [UInt8]) throws(CodecError) {
    var left = length
    while left > 0, count >= 8 {
      output.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
      left -= 1
    }
    guard left <= input.count - position else { throw truncated }
    output.append(contentsOf: input[position..<(position + left)])
    position += left
  }
}
