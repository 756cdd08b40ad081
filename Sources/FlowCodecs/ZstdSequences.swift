/// A Zstandard block's sequences section (RFC 8878 §3.1.1.3.2) and their execution: each
/// sequence copies literals, then a match from `offset` bytes back in the frame's output.
///
/// Invariants: FSE states always index their tables; every match's offset is checked against
/// the frame's output so far, every literal run against the literals left, every length
/// against the block's end (`ZstdBound`: a block's maximum of at most 128 KiB, the declared
/// content, the output bound); the bitstream must be used up exactly.
struct ZstdSequences {
  /// The tables of the previous block (repeat mode) and the three repeat offsets.
  var literalTable = ZstdFSE.literalLengths
  var offsetTable = ZstdFSE.offsets
  var matchTable = ZstdFSE.matchLengths
  var repeats = [1, 4, 8]
  /// The tables' merged cells (`ZstdSequenceCell`), made when a table changes.
  var literalCells = ZstdSequences.predefinedLiteralCells
  var offsetCells = ZstdSequences.predefinedOffsetCells
  var matchCells = ZstdSequences.predefinedMatchCells
  static let predefinedLiteralCells = ZstdSequenceCell.cells(.literalLengths, values: literalBase)
  static let predefinedOffsetCells = ZstdSequenceCell.offsetCells(.offsets)
  static let predefinedMatchCells = ZstdSequenceCell.cells(.matchLengths, values: matchBase)

  static let literalBase: [(Int, Int)] =
    (0..<16).map { ($0, 0) } + [
      (16, 1), (18, 1), (20, 1), (22, 1), (24, 2), (28, 2), (32, 3), (40, 3), (48, 4), (64, 6), (128, 7), (256, 8),
      (512, 9), (1_024, 10), (2_048, 11), (4_096, 12), (8_192, 13), (16_384, 14), (32_768, 15), (65_536, 16)
    ]
  static let matchBase: [(Int, Int)] =
    (0..<32).map { ($0 + 3, 0) } + [
      (35, 1), (37, 1), (39, 1), (41, 1), (43, 2), (47, 2), (51, 3), (59, 3), (67, 4), (83, 4), (99, 5), (131, 7),
      (259, 8),
      (515, 9), (1_027, 10), (2_051, 11), (4_099, 12), (8_195, 13), (16_387, 14), (32_771, 15), (65_539, 16)
    ]

  /// Decodes the sequences at `input[start..<end]` and appends the block's bytes (literals and
  /// matches) to `output`, which holds the frame so far from `frameStart`.
  mutating func execute(
    _ input: [UInt8], at start: Int, end: Int, literals: [UInt8], into output: inout [UInt8],
    frameStart: Int, bound: ZstdBound
  ) throws(CodecError) {
    guard start < end else { throw CodecError("a Zstandard sequences section ends early") }
    var position = start
    var count = Int(input[position])
    position += 1
    if count >= 128 {
      guard end - position >= (count == 255 ? 2 : 1) else { throw CodecError("a Zstandard sequence count ends early") }
      if count == 255 {
        count = Int(input[position]) + Int(input[position + 1]) << 8 + 0x7F00
        position += 2
      } else {
        count = (count - 128) << 8 + Int(input[position])
        position += 1
      }
    }
    if count == 0 {
      guard output.count + literals.count <= bound.blockEnd(from: output.count) else {
        throw bound.error(reaching: output.count + literals.count)
      }
      output += literals
      return
    }
    guard position < end else { throw CodecError("Zstandard sequence modes end early") }
    let modes = Int(input[position])
    position += 1
    guard modes & 3 == 0 else { throw CodecError("reserved Zstandard sequence mode bits are set") }
    literalTable = try Self.table(
      modes >> 6, input, &position, end, current: literalTable, predefined: .literalLengths, maxSymbol: 35, maxLog: 9)
    offsetTable = try Self.table(
      (modes >> 4) & 3, input, &position, end, current: offsetTable, predefined: .offsets, maxSymbol: 31, maxLog: 8)
    matchTable = try Self.table(
      (modes >> 2) & 3, input, &position, end, current: matchTable, predefined: .matchLengths, maxSymbol: 52, maxLog: 9)
    literalCells = Self.cells(
      modes >> 6, literalCells, predefined: Self.predefinedLiteralCells,
      ZstdSequenceCell.cells(literalTable, values: Self.literalBase))
    offsetCells = Self.cells(
      (modes >> 4) & 3, offsetCells, predefined: Self.predefinedOffsetCells, ZstdSequenceCell.offsetCells(offsetTable))
    matchCells = Self.cells(
      (modes >> 2) & 3, matchCells, predefined: Self.predefinedMatchCells,
      ZstdSequenceCell.cells(matchTable, values: Self.matchBase))
    var bits = try ZstdBits(backward: input, position, end)
    var literalState = Int(bits.read(literalTable.log))
    var offsetState = Int(bits.read(offsetTable.log))
    var matchState = Int(bits.read(matchTable.log))
    // The tables in locals: a static read in the loop is a lazy global's check every time.
    let (literalBase, matchBase) = (Self.literalBase, Self.matchBase)
    let (literalStates, offsetStates, matchStates) = (literalTable.table, offsetTable.table, matchTable.table)
    var (first, second, third) = (repeats[0], repeats[1], repeats[2])
    defer { repeats = [first, second, third] }
    // The block's bytes are written in place as its sequences are decoded, below its room (a
    // block's maximum, the declared content and the bound), cut back to what was written.
    let room = UnsafeZstdSequenceLoop.Room(
      end: bound.blockEnd(from: output.count), bound: bound, frameStart: frameStart)
    var progress = UnsafeZstdSequenceLoop.Progress(
      index: 0, remaining: bits.remaining, literalState: literalState, offsetState: offsetState,
      matchState: matchState, first: first, second: second, third: third, used: 0, produced: output.count)
    UnsafeZstdBlockCopy.open(&output, room: room.end - output.count)
    defer { UnsafeZstdBlockCopy.close(&output, at: progress.produced) }
    // The bulk over buffers (`UnsafeZstdSequenceLoop`), the rest (the last sequence, the
    // stream's last bits) below, written after the stream is checked.
    try UnsafeZstdSequenceLoop.decode(
      input, streamStart: position, literalCells: literalCells, offsetCells: offsetCells, matchCells: matchCells,
      count: count, literals: literals, room: room, &progress, into: &output)
    (literalState, offsetState, matchState) = (progress.literalState, progress.offsetState, progress.matchState)
    (first, second, third) = (progress.first, progress.second, progress.third)
    bits.remaining = progress.remaining
    var decoded: [UnsafeZstdBlockCopy.Sequence] = []
    var (taken, produced) = (progress.used, progress.produced)
    for index in progress.index..<count {
      let offsetCode = Int(offsetStates[offsetState].symbol)
      let matchCode = Int(matchStates[matchState].symbol)
      let literalCode = Int(literalStates[literalState].symbol)
      guard offsetCode <= 31, matchCode < matchBase.count, literalCode < literalBase.count else {
        throw CodecError("a Zstandard sequence code out of range")
      }
      let offsetValue = (1 << offsetCode) + Int(bits.read(offsetCode))
      let match = matchBase[matchCode].0 + Int(bits.read(matchBase[matchCode].1))
      let literalLength = literalBase[literalCode].0 + Int(bits.read(literalBase[literalCode].1))
      let offset = try Self.resolve(offsetValue, literalLength: literalLength, &first, &second, &third)
      if index < count - 1 {
        literalState = Int(literalStates[literalState].baseline) + Int(bits.read(Int(literalStates[literalState].bits)))
        matchState = Int(matchStates[matchState].baseline) + Int(bits.read(Int(matchStates[matchState].bits)))
        offsetState = Int(offsetStates[offsetState].baseline) + Int(bits.read(Int(offsetStates[offsetState].bits)))
      }
      guard bits.remaining >= 0 else { throw CodecError("a Zstandard sequences bitstream ends early") }
      guard literalLength <= literals.count - taken else {
        throw CodecError("a Zstandard sequence takes more literals than the block has")
      }
      guard produced + literalLength + match <= room.end else {
        throw bound.error(reaching: produced + literalLength + match)
      }
      produced += literalLength
      taken += literalLength
      guard offset > 0, offset <= produced - frameStart else {
        throw CodecError("a Zstandard match reaches before the start of the data")
      }
      produced += match
      decoded.append(UnsafeZstdBlockCopy.Sequence(literalLength: literalLength, matchLength: match, offset: offset))
    }
    guard bits.remaining == 0 else { throw CodecError("a Zstandard sequences bitstream holds more than its sequences") }
    let rest = literals.count - taken
    guard produced + rest <= room.end else { throw bound.error(reaching: produced + rest) }
    decoded.append(UnsafeZstdBlockCopy.Sequence(literalLength: rest, matchLength: 0, offset: 0))
    UnsafeZstdBlockCopy.write(
      decoded, literals: literals, used: &progress.used, into: &output, at: &progress.produced, end: room.end,
      frameStart: frameStart)
  }

  /// The offset of a sequence's offset value (1…3: a repeat offset, else the offset + 3),
  /// updating the repeat offsets; the compressor mirrors the decoder's repeats through it.
  mutating func resolve(_ value: Int, literalLength: Int) throws(CodecError) -> Int {
    var (first, second, third) = (repeats[0], repeats[1], repeats[2])
    let offset = try Self.resolve(value, literalLength: literalLength, &first, &second, &third)
    repeats[0] = first
    repeats[1] = second
    repeats[2] = third
    return offset
  }

  /// `resolve` over the three repeat offsets as variables (the decoding loop keeps them in
  /// registers; they are unchanged when it throws).
  @inline(__always)
  static func resolve(
    _ value: Int, literalLength: Int, _ first: inout Int, _ second: inout Int, _ third: inout Int
  ) throws(CodecError) -> Int {
    if value > 3 {
      third = second
      second = first
      first = value - 3
      return first
    }
    switch value + (literalLength == 0 ? 1 : 0) {
    case 1: return first
    case 2: swap(&first, &second)
    case 3: (first, second, third) = (third, first, second)
    default:
      guard first > 1 else { throw CodecError("a Zstandard repeat offset of 0") }
      (first, second, third) = (first - 1, first, second)
    }
    return first
  }

  /// The cells of the table a mode byte's field selected: the predefined ones (made once), the
  /// current ones for a repeated table, else `made` of the table just read.
  private static func cells(
    _ mode: Int, _ current: [ZstdSequenceCell], predefined: [ZstdSequenceCell],
    _ made: @autoclosure () -> [ZstdSequenceCell]
  ) -> [ZstdSequenceCell] {
    switch mode {
    case 0: predefined
    case 3: current
    default: made()
    }
  }

  /// The table a mode byte's field selects: predefined, RLE, described here, or repeated.
  private static func table(
    _ mode: Int, _ input: [UInt8], _ position: inout Int, _ end: Int, current: ZstdFSE,
    predefined: ZstdFSE, maxSymbol: Int, maxLog: Int
  ) throws(CodecError) -> ZstdFSE {
    switch mode {
    case 0: return predefined
    case 1:
      guard position < end else { throw CodecError("a Zstandard RLE table ends early") }
      defer { position += 1 }
      guard Int(input[position]) <= maxSymbol else { throw CodecError("a Zstandard RLE symbol out of range") }
      return ZstdFSE(rle: input[position])
    case 2:
      let (table, after) = try ZstdFSE.read(input, at: position, end: end, maxSymbol: maxSymbol, maxLog: maxLog)
      position = after
      return table
    default:
      return current
    }
  }
}
