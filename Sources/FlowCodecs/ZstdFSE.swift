/// A Zstandard FSE decoding table (RFC 8878 §4.1): each state gives a symbol, the bits to read
/// and the baseline of the next state.
///
/// Invariants: the accuracy log is at most the caller's maximum; the normalized counts add up
/// to exactly the table size and the spread visits every cell once (else `CodecError`), so
/// every state (`0..<size`) indexes the table and every next state stays below `size`.
struct ZstdFSE: Sendable {
  struct Entry: Sendable {
    var symbol: UInt8
    var bits: UInt8
    var baseline: UInt16
  }

  let log: Int
  let table: [Entry]

  /// A table of one symbol (RLE mode: no bits are read).
  init(rle symbol: UInt8) {
    log = 0
    table = [Entry(symbol: symbol, bits: 0, baseline: 0)]
  }

  /// The table of normalized counts `counts` (−1: "less than 1") at accuracy `log`.
  init(counts: [Int], log: Int) throws(CodecError) {
    let size = 1 << log
    var cells = [Entry](repeating: Entry(symbol: 0, bits: 0, baseline: 0), count: size)
    var next = [Int](repeating: 0, count: counts.count)
    var high = size - 1
    var sum = 0
    for (symbol, count) in counts.enumerated() {
      if count == -1 {
        guard high >= 0 else { throw CodecError("a Zstandard FSE table's counts do not add up") }
        cells[high].symbol = UInt8(symbol)
        high -= 1
        next[symbol] = 1
        sum += 1
      } else {
        next[symbol] = count
        sum += count
      }
    }
    guard sum == size else { throw CodecError("a Zstandard FSE table's counts do not add up") }
    let step = (size >> 1) + (size >> 3) + 3
    var position = 0
    for (symbol, count) in counts.enumerated() where count > 0 {
      for _ in 0..<count {
        cells[position].symbol = UInt8(symbol)
        repeat { position = (position + step) & (size - 1) } while position > high
      }
    }
    guard position == 0 else { throw CodecError("a Zstandard FSE table's counts do not spread") }
    for index in 0..<size {
      let symbol = Int(cells[index].symbol)
      let state = next[symbol]
      next[symbol] += 1
      let bits = log - (Int.bitWidth - 1 - state.leadingZeroBitCount)
      cells[index].bits = UInt8(bits)
      cells[index].baseline = UInt16((state << bits) - size)
    }
    self.log = log
    table = cells
  }

  /// Reads a table description at `input[start...]` (symbols up to `maxSymbol`, accuracy up to
  /// `maxLog`); returns the table and the offset after the description.
  static func read(_ input: [UInt8], at start: Int, end: Int, maxSymbol: Int, maxLog: Int) throws(CodecError) -> (
    ZstdFSE, Int
  ) {
    var bits = ZstdBits(forward: input, start, end)
    let log = Int(try bits.readForward(4)) + 5
    guard log <= maxLog else { throw CodecError("a Zstandard FSE accuracy of \(log), more than \(maxLog)") }
    var remaining = (1 << log) + 1
    var threshold = 1 << log
    var width = log + 1
    var counts: [Int] = []
    while remaining > 1 {
      guard counts.count <= maxSymbol else { throw CodecError("a Zstandard FSE table with too many symbols") }
      let maximum = (2 * threshold - 1) - remaining
      var value: Int
      let low = Int(bits.peekForward(width - 1))
      if low < maximum {
        value = Int(try bits.readForward(width - 1))
      } else {
        value = Int(try bits.readForward(width))
        if value >= threshold { value -= maximum }
      }
      let count = value - 1
      remaining -= count < 0 ? 1 : count
      counts.append(count)
      if count == 0 {
        while true {
          let repeats = Int(try bits.readForward(2))
          guard counts.count + repeats <= maxSymbol + 1 else {
            throw CodecError("a Zstandard FSE table with too many symbols")
          }
          counts += [Int](repeating: 0, count: repeats)
          if repeats != 3 { break }
        }
      }
      while remaining < threshold, threshold > 1 {
        width -= 1
        threshold >>= 1
      }
    }
    guard remaining == 1 else { throw CodecError("a Zstandard FSE table's counts do not add up") }
    return (try ZstdFSE(counts: counts, log: log), start + (bits.consumed + 7) / 8)
  }

  /// The predefined distributions (RFC 8878 §3.1.1.3.2.2): literal lengths, match lengths and
  /// offsets, with their accuracy logs 6, 6 and 5.
  static let literalLengthCounts = [
    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1,
    1, 1, 1, 1, -1, -1, -1, -1
  ]
  static let matchLengthCounts = [
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1
  ]
  static let offsetCounts = [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1]

  /// The predefined tables.
  static let literalLengths = try! ZstdFSE(counts: literalLengthCounts, log: 6)
  static let matchLengths = try! ZstdFSE(counts: matchLengthCounts, log: 6)
  static let offsets = try! ZstdFSE(counts: offsetCounts, log: 5)
}
