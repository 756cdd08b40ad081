/// A Zstandard block's sequences section (RFC 8878 §3.1.1.3.2), written with the predefined
/// FSE distributions for literal lengths, match lengths and offsets.
///
/// Invariants: every sequence has a match length of at least 3 and an offset value of at least
/// 1 (1…3 name a repeat offset, larger values are the offset + 3) below 2^29, and a literal
/// length below 2^17, so each code is one the predefined tables can encode (offset codes up to
/// 28, literal length codes up to 35, match length codes up to 52). Sequences are written last
/// to first into a backward bitstream, each one's extra bits in the order literal length, match
/// length, offset, which `ZstdSequences.execute` reads in reverse.
enum ZstdSequenceWriter {
  /// One sequence: literals to copy, then a match.
  struct Sequence: Equatable, Sendable {
    var literalLength: Int
    var matchLength: Int
    /// 1…3: a repeat offset; otherwise the offset + 3.
    var offsetValue: Int
  }

  /// The sequences section of `sequences`.
  static func write(_ sequences: [Sequence], to output: inout [UInt8]) {
    let count = sequences.count
    if count < 128 {
      output.append(UInt8(count))
    } else if count < 0x7F00 {
      output += [UInt8(count >> 8 + 128), UInt8(count & 0xFF)]
    } else {
      output += [255, UInt8((count - 0x7F00) & 0xFF), UInt8((count - 0x7F00) >> 8)]
    }
    guard count > 0 else { return }
    output.append(0)  // Predefined distributions for all three.
    let literalTable = ZstdFSEEncoder.literalLengths
    let matchTable = ZstdFSEEncoder.matchLengths
    let offsetTable = ZstdFSEEncoder.offsets
    let codes = sequences.map(Codes.init)
    var writer = ZstdBitWriter()
    var literalState = literalTable.initialState(codes[count - 1].literal)
    var matchState = matchTable.initialState(codes[count - 1].match)
    var offsetState = offsetTable.initialState(codes[count - 1].offset)
    codes[count - 1].addExtraBits(to: &writer)
    for index in stride(from: count - 2, through: 0, by: -1) {
      let code = codes[index]
      offsetTable.encode(code.offset, state: &offsetState, into: &writer)
      matchTable.encode(code.match, state: &matchState, into: &writer)
      literalTable.encode(code.literal, state: &literalState, into: &writer)
      code.addExtraBits(to: &writer)
    }
    matchTable.flush(matchState, into: &writer)
    offsetTable.flush(offsetState, into: &writer)
    literalTable.flush(literalState, into: &writer)
    output += writer.close()
  }

  /// A sequence's three codes and the extra bits after each code's baseline.
  private struct Codes {
    var literal: Int
    var literalExtra: Int
    var match: Int
    var matchExtra: Int
    var offset: Int
    var offsetExtra: Int

    init(_ sequence: Sequence) {
      literal = Self.code(sequence.literalLength, in: ZstdSequences.literalBase)
      literalExtra = sequence.literalLength - ZstdSequences.literalBase[literal].0
      match = Self.code(sequence.matchLength, in: ZstdSequences.matchBase)
      matchExtra = sequence.matchLength - ZstdSequences.matchBase[match].0
      offset = Int.bitWidth - 1 - sequence.offsetValue.leadingZeroBitCount
      offsetExtra = sequence.offsetValue - (1 << offset)
    }

    func addExtraBits(to writer: inout ZstdBitWriter) {
      writer.add(literalExtra, ZstdSequences.literalBase[literal].1)
      writer.add(matchExtra, ZstdSequences.matchBase[match].1)
      writer.add(offsetExtra, offset)
    }

    /// The last code whose baseline is at most `value` (a binary search of the baselines).
    private static func code(_ value: Int, in bases: [(Int, Int)]) -> Int {
      var low = 0
      var high = bases.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if bases[middle].0 <= value { low = middle } else { high = middle - 1 }
      }
      return low
    }
  }
}
