/// The delta encodings: `DELTA_BINARY_PACKED` (integers), `DELTA_LENGTH_BYTE_ARRAY` and
/// `DELTA_BYTE_ARRAY` (byte arrays).
///
/// `DELTA_BINARY_PACKED` is a header (values per block, miniblocks per block, the value count,
/// the first value) and blocks of a minimum delta, one bit width per miniblock, and the
/// miniblocks' deltas (less the minimum) bit-packed. Invariants: no count from the data is
/// allocated before the values are read (at most `count`, what the page's levels say, are
/// kept); every bit read is checked against the end; arithmetic wraps as the format says
/// (`INT32` in 32 bits); `DELTA_BYTE_ARRAY`'s prefixes never exceed the value before, and its
/// output stops at `byteLimit`.
extension ParquetValues {
  /// Appends `count` `DELTA_BINARY_PACKED` integers; returns where the encoding ends.
  @discardableResult
  mutating func appendDeltaBinaryPacked(_ count: Int, _ data: [UInt8], from start: Int, to end: Int)
    throws(ParquetError) -> Int
  {
    var values: [Int64] = []
    let position = try Self.deltaBinaryPacked(count, data, from: start, to: end, into: &values, int32: type == 1)
    integers += values
    return position
  }

  /// Appends `count` `DELTA_LENGTH_BYTE_ARRAY` values.
  mutating func appendDeltaLength(_ count: Int, _ data: [UInt8], from start: Int, to end: Int) throws(ParquetError) {
    var lengths: [Int64] = []
    var position = try Self.deltaBinaryPacked(count, data, from: start, to: end, into: &lengths, int32: true)
    for length in lengths {
      guard length >= 0, length <= end - position else {
        throw ParquetError("a DELTA_LENGTH_BYTE_ARRAY value runs past the page")
      }
      append(bytes: data[position..<position + Int(length)])
      position += Int(length)
    }
  }

  /// Appends `count` `DELTA_BYTE_ARRAY` values (each a prefix of the one before and a suffix).
  mutating func appendDeltaByteArray(_ count: Int, _ data: [UInt8], from start: Int, to end: Int, byteLimit: Int)
    throws(ParquetError)
  {
    var prefixes: [Int64] = []
    var suffixes: [Int64] = []
    var position = try Self.deltaBinaryPacked(count, data, from: start, to: end, into: &prefixes, int32: true)
    position = try Self.deltaBinaryPacked(count, data, from: position, to: end, into: &suffixes, int32: true)
    // The value before, apart (appending a slice of `bytes` to itself would copy it whole).
    var previous: [UInt8] = []
    for index in 0..<count {
      let prefix = prefixes[index]
      let suffix = suffixes[index]
      guard prefix >= 0, prefix <= previous.count else {
        throw ParquetError("a DELTA_BYTE_ARRAY prefix longer than the value before")
      }
      guard suffix >= 0, suffix <= end - position else {
        throw ParquetError("a DELTA_BYTE_ARRAY suffix runs past the page")
      }
      guard bytes.count + Int(prefix) + Int(suffix) <= byteLimit else {
        throw ParquetError(
          "DELTA_BYTE_ARRAY values of more than \(byteLimit) bytes (the memory limit; raise it with --max-memory)")
      }
      previous.removeSubrange(Int(prefix)...)
      previous.append(contentsOf: data[position..<position + Int(suffix)])
      position += Int(suffix)
      bytes.append(contentsOf: previous)
      offsets.append(bytes.count)
    }
  }

  /// Decodes `count` `DELTA_BINARY_PACKED` integers into `output`; returns where they end.
  static func deltaBinaryPacked(
    _ count: Int, _ data: [UInt8], from start: Int, to end: Int, into output: inout [Int64],
    int32: Bool
  ) throws(ParquetError) -> Int {
    var reader = ThriftCompactReader(data, from: start, to: end, what: "DELTA_BINARY_PACKED data")
    let blockSize = try reader.varint()
    let miniblocks = try reader.varint()
    let total = try reader.varint()
    var value = try reader.zigzag()
    guard blockSize > 0, blockSize % 128 == 0, blockSize <= 1 << 20, miniblocks > 0, blockSize % miniblocks == 0,
      (blockSize / miniblocks) % 8 == 0
    else {
      throw ParquetError("DELTA_BINARY_PACKED blocks of \(blockSize) values in \(miniblocks) miniblocks")
    }
    guard total >= UInt64(count) else {
      throw ParquetError("DELTA_BINARY_PACKED holds \(total) values, the page \(count)")
    }
    let perMiniblock = Int(blockSize / miniblocks)
    var position = reader.position
    output.reserveCapacity(count)
    if count > 0 { output.append(value) }
    while output.count < count {
      var block = ThriftCompactReader(data, from: position, to: end, what: "DELTA_BINARY_PACKED data")
      let minimum = try block.zigzag()
      position = block.position
      guard end - position >= Int(miniblocks) else {
        throw ParquetError("DELTA_BINARY_PACKED bit widths run past the page")
      }
      let widths = position
      position += Int(miniblocks)
      for miniblock in 0..<Int(miniblocks) where output.count < count {
        let width = Int(data[widths + miniblock])
        guard width <= 64 else { throw ParquetError("a DELTA_BINARY_PACKED bit width of \(width)") }
        let used = min(perMiniblock, count - output.count)
        guard (end - position) * 8 >= used * width else {
          throw ParquetError("a DELTA_BINARY_PACKED miniblock runs past the page")
        }
        for index in 0..<used {
          let delta = bits(data, bit: position * 8 + index * width, width: width)
          value = value &+ minimum &+ Int64(bitPattern: delta)
          if int32 { value = Int64(Int32(truncatingIfNeeded: value)) }
          output.append(value)
        }
        position = min(end, position + perMiniblock * width / 8)
      }
    }
    return position
  }

  /// `width` bits starting at bit `bit` of `data`, least significant first (in bounds).
  private static func bits(_ data: [UInt8], bit: Int, width: Int) -> UInt64 {
    guard width > 0 else { return 0 }
    var value: UInt64 = 0
    var taken = 0
    var at = bit
    while taken < width {
      let shift = at & 7
      let chunk = min(8 - shift, width - taken)
      let part = (UInt64(data[at >> 3]) >> UInt64(shift)) & ((1 << UInt64(chunk)) - 1)
      value |= part << UInt64(taken)
      taken += chunk
      at += chunk
    }
    return value
  }
}
