/// A Zstandard block's literals section (RFC 8878 §3.1.1.3.1): raw, RLE, or Huffman-coded in
/// one or four streams, with a new Huffman table or the previous block's.
///
/// Invariants: the regenerated size is at most 128 KiB (a block's maximum) and every stream is
/// checked to decode to exactly its share and to consume exactly its bits; Huffman weights
/// must make a complete code of at most 11 bits.
enum ZstdLiterals {
  /// A Huffman decoding table: the next `log` bits index a cell, a symbol and its length in
  /// bits (`symbol | length << 8`).
  struct Huffman: Sendable {
    let log: Int
    let cells: [UInt16]

    /// The next symbol of `bits` (bits below the stream's start read as zeros).
    @inline(__always)
    func symbol(_ bits: inout ZstdBits) -> UInt8 {
      let cell = cells[Int(bits.peek(log))]
      bits.remaining -= Int(cell >> 8)
      return UInt8(truncatingIfNeeded: cell)
    }
  }

  /// Decodes the literals at `input[start..<end]`; returns them and the offset after them.
  static func read(_ input: [UInt8], at start: Int, end: Int, huffman: inout Huffman?) throws(CodecError) -> (
    [UInt8], Int
  ) {
    guard start < end else { throw CodecError("a Zstandard literals section ends early") }
    let first = Int(input[start])
    let type = first & 3
    let format = (first >> 2) & 3
    func header(_ count: Int) throws(CodecError) -> Int {
      guard end - start >= count else { throw CodecError("a Zstandard literals header ends early") }
      var value = 0
      for index in 0..<count { value |= Int(input[start + index]) << (8 * index) }
      return value
    }
    if type < 2 {
      let (size, length): (Int, Int) =
        switch format {
        case 0, 2: (first >> 3, 1)
        case 1: (try header(2) >> 4, 2)
        default: (try header(3) >> 4, 3)
        }
      let from = start + length
      if type == 0 {
        guard end - from >= size else { throw CodecError("Zstandard raw literals run past the block") }
        return (Array(input[from..<from + size]), from + size)
      }
      guard from < end else { throw CodecError("Zstandard RLE literals run past the block") }
      return ([UInt8](repeating: input[from], count: size), from + 1)
    }
    let (streams, length, sizeBits) =
      format == 0 ? (1, 3, 10) : format == 1 ? (4, 3, 10) : format == 2 ? (4, 4, 14) : (4, 5, 18)
    let value = try header(length)
    let regenerated = (value >> 4) & ((1 << sizeBits) - 1)
    let compressed = (value >> (4 + sizeBits)) & ((1 << sizeBits) - 1)
    guard regenerated <= 128 << 10 else { throw CodecError("Zstandard literals of \(regenerated) bytes") }
    var position = start + length
    guard end - position >= compressed else { throw CodecError("Zstandard literals run past the block") }
    let streamEnd = position + compressed
    if type == 2 {
      let (table, after) = try readTree(input, at: position, end: streamEnd)
      huffman = table
      position = after
    }
    guard let table = huffman else { throw CodecError("Zstandard literals reuse a Huffman table no block defined") }
    var output: [UInt8] = []
    output.reserveCapacity(regenerated)
    if streams == 1 {
      try decode(input, position, streamEnd, table, count: regenerated, into: &output)
    } else {
      guard streamEnd - position >= 6 else { throw CodecError("a Zstandard jump table ends early") }
      var sizes = (0..<3).map { Int(input[position + 2 * $0]) | Int(input[position + 2 * $0 + 1]) << 8 }
      position += 6
      sizes.append(streamEnd - position - sizes.reduce(0, +))
      guard sizes[3] >= 0 else { throw CodecError("a Zstandard jump table points past the literals") }
      let share = (regenerated + 3) / 4
      guard share * 3 <= regenerated else { throw CodecError("Zstandard literals too short for four streams") }
      var bounds = [position]
      for size in sizes { bounds.append(bounds[bounds.count - 1] + size) }
      output = try decodeFour(input, bounds, table, share: share, count: regenerated)
    }
    return (output, streamEnd)
  }

  /// Decodes four backward streams (`input[bounds[k]..<bounds[k + 1]]`) of `share` symbols each
  /// (the last: what is left of `count`), side by side: their symbols are independent, so the
  /// four bit positions advance together instead of one stream's waiting on each of its reads.
  /// Each stream must be used up, checked in stream order as one at a time would.
  private static func decodeFour(_ input: [UInt8], _ bounds: [Int], _ table: Huffman, share: Int, count: Int)
    throws(CodecError) -> [UInt8]
  {
    var streams = [ZstdBits]()
    for index in 0..<4 { streams.append(try ZstdBits(backward: input, bounds[index], bounds[index + 1])) }
    var (first, second, third, fourth) = (streams[0], streams[1], streams[2], streams[3])
    var output = [UInt8](repeating: 0, count: count)
    let last = count - 3 * share
    // The bulk over buffers (`UnsafeZstdHuffmanLoop`), the rest below.
    var progress = UnsafeZstdHuffmanLoop.Progress(
      row: 0, remaining: (first.remaining, second.remaining, third.remaining, fourth.remaining))
    if table.log >= 1 {
      UnsafeZstdHuffmanLoop.decode(
        input, starts: (bounds[0], bounds[1], bounds[2], bounds[3]), cells: table.cells, log: table.log, share: share,
        rows: last, &progress, into: &output)
      (first.remaining, second.remaining) = (progress.remaining.0, progress.remaining.1)
      (third.remaining, fourth.remaining) = (progress.remaining.2, progress.remaining.3)
    }
    for row in progress.row..<last {
      output[row] = table.symbol(&first)
      output[share + row] = table.symbol(&second)
      output[2 * share + row] = table.symbol(&third)
      output[3 * share + row] = table.symbol(&fourth)
    }
    for row in last..<share {
      output[row] = table.symbol(&first)
      output[share + row] = table.symbol(&second)
      output[2 * share + row] = table.symbol(&third)
    }
    for bits in [first, second, third, fourth] { try usedUp(bits) }
    return output
  }

  /// Decodes `count` symbols of the backward stream `input[start..<end]`, which must be used up.
  private static func decode(
    _ input: [UInt8], _ start: Int, _ end: Int, _ table: Huffman, count: Int,
    into output: inout [UInt8]
  ) throws(CodecError) {
    var bits = try ZstdBits(backward: input, start, end)
    for _ in 0..<count { output.append(table.symbol(&bits)) }
    try usedUp(bits)
  }

  /// Checks that a Huffman stream was read to its start exactly (`remaining` only goes down,
  /// so a stream that ran short is found here).
  private static func usedUp(_ bits: ZstdBits) throws(CodecError) {
    guard bits.remaining >= 0 else { throw CodecError("a Zstandard Huffman stream ends early") }
    guard bits.remaining == 0 else { throw CodecError("a Zstandard Huffman stream holds more than its literals") }
  }

  /// Reads a Huffman tree description (weights, direct or FSE-coded) and builds its table.
  static func readTree(_ input: [UInt8], at start: Int, end: Int) throws(CodecError) -> (Huffman, Int) {
    guard start < end else { throw CodecError("a Zstandard Huffman tree ends early") }
    let header = Int(input[start])
    var weights: [Int] = []
    var after: Int
    if header >= 128 {
      let count = header - 127
      after = start + 1 + (count + 1) / 2
      guard after <= end else { throw CodecError("a Zstandard Huffman tree ends early") }
      for index in 0..<count {
        let byte = Int(input[start + 1 + index / 2])
        weights.append(index % 2 == 0 ? byte >> 4 : byte & 15)
      }
    } else {
      after = start + 1 + header
      guard after <= end, header > 0 else { throw CodecError("a Zstandard Huffman tree ends early") }
      let (fse, streamStart) = try ZstdFSE.read(input, at: start + 1, end: after, maxSymbol: 255, maxLog: 6)
      var bits = try ZstdBits(backward: input, streamStart, after)
      var one = Int(bits.read(fse.log))
      var two = Int(bits.read(fse.log))
      func step(_ state: inout Int) {
        let entry = fse.table[state]
        weights.append(Int(entry.symbol))
        state = Int(entry.baseline) + Int(bits.read(Int(entry.bits)))
      }
      while weights.count < 255 {
        step(&one)
        if bits.remaining < 0 { weights.append(Int(fse.table[two].symbol)); break }
        step(&two)
        if bits.remaining < 0 { weights.append(Int(fse.table[one].symbol)); break }
      }
    }
    guard weights.count <= 255, weights.allSatisfy({ $0 <= 11 }) else {
      throw CodecError("a Zstandard Huffman tree with bad weights")
    }
    var total = 0
    for weight in weights where weight > 0 { total += 1 << (weight - 1) }
    guard total > 0 else { throw CodecError("a Zstandard Huffman tree without symbols") }
    let log = Int.bitWidth - total.leadingZeroBitCount  // highest bit + 1
    guard log <= 11 else { throw CodecError("a Zstandard Huffman code longer than 11 bits") }
    let rest = (1 << log) - total
    guard rest > 0, rest & (rest - 1) == 0 else { throw CodecError("a Zstandard Huffman tree that is not complete") }
    weights.append(rest.trailingZeroBitCount + 1)
    var start = [Int](repeating: 0, count: 13)
    var next = 0
    for weight in 1...12 {
      start[weight] = next
      next += weights.filter { $0 == weight }.count << (weight - 1)
    }
    var cells = [UInt16](repeating: 0, count: 1 << log)
    for (symbol, weight) in weights.enumerated() where weight > 0 {
      let span = 1 << (weight - 1)
      for index in start[weight]..<start[weight] + span {
        cells[index] = UInt16(symbol) | UInt16(log + 1 - weight) << 8
      }
      start[weight] += span
    }
    return (Huffman(log: log, cells: cells), after)
  }
}
