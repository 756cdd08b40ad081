/// Decodes Parquet's RLE/bit-packed hybrid (definition levels, dictionary indices, RLE
/// booleans): runs, each a varint header — even: a repeated value of `bitWidth` bits in
/// ⌈bitWidth/8⌉ bytes, repeated `header >> 1` times; odd: `header >> 1` groups of 8 values
/// bit-packed least significant bit first.
///
/// Invariants: no run's length is trusted for an allocation (values are appended only up to
/// the count asked for); every byte read is checked against `end`, which lies inside `bytes`.
struct ParquetRLEDecoder {
  let bytes: [UInt8]
  private(set) var position: Int
  let end: Int
  let bitWidth: Int
  /// What is decoded, for messages.
  let what: String

  init(_ bytes: [UInt8], from start: Int, to end: Int, bitWidth: Int, what: String) throws(ParquetError) {
    guard (0...32).contains(bitWidth) else { throw ParquetError("\(what): a bit width of \(bitWidth)") }
    guard start >= 0, start <= end, end <= bytes.count else {
      throw ParquetError("\(what): the runs lie past the page")
    }
    self.bytes = bytes
    position = start
    self.end = end
    self.bitWidth = bitWidth
    self.what = what
  }

  /// The next values in one run: `count` copies of `value`, or `count` values bit-packed
  /// from byte `start` (whose `count × bitWidth` bits lie before `end`).
  enum Run {
    case repeated(UInt32, count: Int)
    case packed(start: Int, count: Int)
  }

  /// The next run, cut to at most `limit` values (none for an empty run; each run read moves
  /// past at least its header, so a loop over runs ends).
  ///
  /// - Throws: `ParquetError` if the runs end before a value, or a run is malformed.
  mutating func nextRun(limit: Int) throws(ParquetError) -> Run {
    guard position < end else { throw ParquetError("\(what): the runs end \(limit) values early") }
    let header = try varint()
    let runLength = header >> 1
    if header & 1 == 0 {
      let width = (bitWidth + 7) / 8
      guard end - position >= width else { throw ParquetError("\(what): a run ends early") }
      var value: UInt32 = 0
      for index in 0..<width { value |= UInt32(bytes[position + index]) << (8 * index) }
      position += width
      guard bitWidth == 32 || value >> bitWidth == 0 else {
        throw ParquetError("\(what): a value wider than \(bitWidth) bits")
      }
      return .repeated(value, count: Int(min(UInt64(limit), runLength)))
    }
    guard runLength <= UInt64(Int32.max) else { throw ParquetError("\(what): a run of \(runLength) groups") }
    let values = Int(runLength) * 8
    let byteCount = Int(runLength) * bitWidth
    let available = min(byteCount, end - position)
    let taken = min(limit, values)
    guard taken * bitWidth <= available * 8 else { throw ParquetError("\(what): a bit-packed run ends early") }
    let start = position
    position += available
    return .packed(start: start, count: taken)
  }

  /// Appends `count` values to `output`.
  ///
  /// - Throws: `ParquetError` if the runs end before `count` values (`output` unchanged).
  mutating func decode(_ count: Int, into output: inout [UInt32]) throws(ParquetError) {
    try UnsafeParquetRuns.appendDecoded(count, of: &self, to: &output)
  }

  /// Whether the next `count` values (at least 1) are all `value`, in one repeated run (the
  /// definition levels of a page without nulls): then that run is read, else nothing is.
  mutating func skipRun(of value: UInt32, covering count: Int) -> Bool {
    let saved = position
    let width = (bitWidth + 7) / 8
    guard count > 0, let header = try? varint(), header & 1 == 0, header >> 1 >= UInt64(count), end - position >= width
    else {
      position = saved
      return false
    }
    var found: UInt32 = 0
    for index in 0..<width { found |= UInt32(bytes[position + index]) << (8 * index) }
    guard found == value else {
      position = saved
      return false
    }
    position += width
    return true
  }

  private mutating func varint() throws(ParquetError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end, shift < 64 else { throw ParquetError("\(what): a run header ends early") }
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  /// The bit width of values up to `maximum` (0 for 0).
  static func bitWidth(of maximum: Int) -> Int { maximum == 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount }
}
