/// `PLAIN` and `BYTE_STREAM_SPLIT` values.
extension ParquetValues {
  /// The bytes one value takes in `PLAIN` (0 for `BOOLEAN` and `BYTE_ARRAY`, which differ).
  var plainWidth: Int {
    switch type {
    case 1, 4: 4
    case 2, 5: 8
    case 3: 12
    case 7: typeLength
    default: 0
    }
  }

  /// Appends `count` `PLAIN` values read from `data[start..<end]`; returns where they end.
  ///
  /// - Throws: `ParquetError` if the bytes end before `count` values.
  @discardableResult
  mutating func appendPlain(_ count: Int, _ data: [UInt8], from start: Int, to end: Int) throws(ParquetError) -> Int {
    let short = ParquetError("the page holds fewer than its \(count) values")
    switch type {
    case 0:
      guard (end - start) * 8 >= count else { throw short }
      bools.reserveCapacity(bools.count + count)
      for index in 0..<count { bools.append(data[start + index >> 3] >> (index & 7) & 1 == 1) }
      return start + (count + 7) / 8
    case 6:
      var position = start
      for _ in 0..<count {
        guard end - position >= 4 else { throw short }
        let length = Int(Self.littleEndian(data, position, 4))
        guard end - position - 4 >= length else { throw short }
        append(bytes: data[position + 4..<position + 4 + length])
        position += 4 + length
      }
      return position
    default:
      let width = plainWidth
      guard width > 0 || type == 7 else { throw ParquetError("the physical type \(type) is unknown") }
      guard count == 0 || (end - start) / max(1, width) >= count else { throw short }
      switch type {
      case 1, 2: UnsafeParquetBytes.appendIntegers(count, width: width, from: data, at: start, to: &integers)
      case 4, 5: UnsafeParquetBytes.appendDoubles(count, width: width, from: data, at: start, to: &doubles)
      default: for index in 0..<count { try appendFixed(data, start + index * width) }
      }
      return start + count * width
    }
  }

  /// Appends one fixed-width value (`INT32` … `DOUBLE`, `FIXED_LEN_BYTE_ARRAY`) at `at`.
  private mutating func appendFixed(_ data: [UInt8], _ at: Int) throws(ParquetError) {
    switch type {
    case 1: integers.append(Int64(Int32(bitPattern: UInt32(Self.littleEndian(data, at, 4)))))
    case 2: integers.append(Int64(bitPattern: Self.littleEndian(data, at, 8)))
    case 3:
      // Nanoseconds of the day, then the Julian day.
      let nanoseconds = Int64(bitPattern: Self.littleEndian(data, at, 8))
      let day = Int64(Self.littleEndian(data, at + 8, 4))
      let (dayNanoseconds, overflow) = (day - 2_440_588).multipliedReportingOverflow(by: 86_400_000_000_000)
      let (instant, carry) = dayNanoseconds.addingReportingOverflow(nanoseconds)
      guard !overflow, !carry else { throw ParquetError("an INT96 timestamp outside the years 1677–2262") }
      integers.append(instant)
    case 4: doubles.append(Double(Float(bitPattern: UInt32(Self.littleEndian(data, at, 4)))))
    case 5: doubles.append(Double(bitPattern: Self.littleEndian(data, at, 8)))
    default: append(bytes: data[at..<at + typeLength])
    }
  }

  /// Appends `count` `BYTE_STREAM_SPLIT` values: byte `k` of value `i` is at `k × count + i`.
  mutating func appendByteStreamSplit(_ count: Int, _ data: [UInt8], from start: Int, to end: Int) throws(ParquetError)
  {
    let width = plainWidth
    guard width > 0, type != 3 else { throw ParquetError("BYTE_STREAM_SPLIT of physical type \(type)") }
    guard (end - start) / width >= count else { throw ParquetError("the page holds fewer than its \(count) values") }
    var value = [UInt8](repeating: 0, count: width)
    for index in 0..<count {
      for byte in 0..<width { value[byte] = data[start + byte * count + index] }
      try appendFixed(value, 0)
    }
  }

  /// The `count` bytes at `at`, little-endian.
  static func littleEndian(_ data: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(data[at + index]) << (8 * UInt64(index)) }
    return value
  }
}
