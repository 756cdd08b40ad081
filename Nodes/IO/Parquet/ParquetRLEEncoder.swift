/// Encodes Parquet's RLE/bit-packed hybrid (what `ParquetRLEDecoder` reads): definition levels
/// and dictionary indices.
///
/// A run of at least 8 equal values becomes an RLE run; anything else goes into bit-packed
/// groups of 8, which end where such a run starts at a group's boundary. Invariant: only the
/// last group of the whole stream is padded (with zeros), so a reader that stops after the
/// values it was told of reads exactly them. Linear: each value is looked at a bounded number
/// of times.
struct ParquetRLEEncoder {
  let bitWidth: Int

  /// - Precondition: `bitWidth` is 1…32 and every value fits in it.
  init(bitWidth: Int) {
    precondition((1...32).contains(bitWidth), "a bit width of 1…32")
    self.bitWidth = bitWidth
  }

  /// The runs of `values`, appended to `output`.
  func encode(_ values: [UInt32], into output: inout [UInt8]) {
    var position = 0
    while position < values.count {
      let run = runLength(values, at: position)
      if run >= 8 {
        appendVarint(UInt64(run) << 1, to: &output)
        let value = values[position]
        for index in 0..<(bitWidth + 7) / 8 { output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))) }
        position += run
        continue
      }
      // Bit-packed groups until a long run starts at a group's boundary (or the values end).
      var end = position
      repeat {
        end = min(values.count, end + 8)
      } while end < values.count && end - position < 8 * 63 && runLength(values, at: end) < 8
      let groups = (end - position + 7) / 8
      appendVarint(UInt64(groups) << 1 | 1, to: &output)
      var buffer: UInt64 = 0
      var filled = 0
      for index in position..<position + groups * 8 {
        buffer |= UInt64(index < end ? values[index] : 0) << UInt64(filled)
        filled += bitWidth
        while filled >= 8 {
          output.append(UInt8(truncatingIfNeeded: buffer))
          buffer >>= 8
          filled -= 8
        }
      }
      position = end
    }
  }

  /// How many values from `start` equal `values[start]`, counting at most 8.
  private func runLength(_ values: [UInt32], at start: Int) -> Int {
    var length = 1
    while start + length < values.count, values[start + length] == values[start] {
      length += 1
      if length == 8 { break }
    }
    guard length == 8 else { return length }
    while start + length < values.count, values[start + length] == values[start] { length += 1 }
    return length
  }

  private func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    output.append(UInt8(rest))
  }
}
