/// A Zstandard FSE encoding table (RFC 8878 §4.1), built from the same normalized counts and the
/// same spread as the decoding table `ZstdFSE`, so that what it writes decodes to its symbols.
///
/// States run over `size..<2 * size` (`size` = 1 << `log`). Encoding a symbol writes the low
/// bits of the state that the decoder reads to go from that symbol's state back to the next
/// one; symbols are therefore encoded last to first, and the final state is flushed last (the
/// decoder reads it first).
///
/// Invariants: `states[cumulative[s] + k]` is `size` + the cell of the `k`-th occurrence of
/// symbol `s` in the decoding table's spread; for a symbol with count `c`, every state shifted
/// right by its bit count lands in `c..<2c`, so `states` is always indexed in range. Only
/// symbols with a nonzero count may be encoded (the callers use the predefined tables, whose
/// counts cover every code they emit).
struct ZstdFSEEncoder: Sendable {
  struct Transform: Sendable {
    var deltaBits: Int
    var deltaState: Int
  }

  let log: Int
  let states: [UInt16]
  let transforms: [Transform]

  /// The encoder of `counts` (−1: "less than 1") whose decoding table is `decoding`.
  init(counts: [Int], decoding: ZstdFSE) {
    let log = decoding.log
    let size = 1 << log
    var cumulative = [Int](repeating: 0, count: counts.count + 1)
    for (symbol, count) in counts.enumerated() {
      cumulative[symbol + 1] = cumulative[symbol] + (count == -1 ? 1 : count)
    }
    var next = cumulative
    var states = [UInt16](repeating: 0, count: size)
    for cell in 0..<size {
      let symbol = Int(decoding.table[cell].symbol)
      states[next[symbol]] = UInt16(size + cell)
      next[symbol] += 1
    }
    transforms = counts.enumerated().map { symbol, count in
      switch count {
      case 0: return Transform(deltaBits: ((log + 1) << 16) - size, deltaState: 0)
      case -1, 1: return Transform(deltaBits: (log << 16) - size, deltaState: cumulative[symbol] - 1)
      default:
        let bitsOut = log - (Int.bitWidth - 1 - (count - 1).leadingZeroBitCount)
        return Transform(deltaBits: (bitsOut << 16) - (count << bitsOut), deltaState: cumulative[symbol] - count)
      }
    }
    self.log = log
    self.states = states
  }

  /// The state that encodes `symbol` first (the last symbol of the stream), writing nothing.
  func initialState(_ symbol: Int) -> Int {
    let transform = transforms[symbol]
    let bits = (transform.deltaBits + (1 << 15)) >> 16
    let value = (bits << 16) - transform.deltaBits
    return Int(states[(value >> bits) + transform.deltaState])
  }

  /// Encodes `symbol` from `state`: writes the state's low bits and moves to the next state.
  func encode(_ symbol: Int, state: inout Int, into writer: inout ZstdBitWriter) {
    let transform = transforms[symbol]
    let bits = (state + transform.deltaBits) >> 16
    writer.add(state, bits)
    state = Int(states[(state >> bits) + transform.deltaState])
  }

  /// Writes the final state (the decoder's initial state).
  func flush(_ state: Int, into writer: inout ZstdBitWriter) { writer.add(state, log) }

  /// The encoders of the predefined distributions.
  static let literalLengths = ZstdFSEEncoder(counts: ZstdFSE.literalLengthCounts, decoding: .literalLengths)
  static let matchLengths = ZstdFSEEncoder(counts: ZstdFSE.matchLengthCounts, decoding: .matchLengths)
  static let offsets = ZstdFSEEncoder(counts: ZstdFSE.offsetCounts, decoding: .offsets)
}
