/// The bulk of a Zstandard block's sequences (`ZstdSequences.execute`), decoded and written
/// over buffer pointers: while the bitstream holds at least `margin` bits, each sequence is read
/// from a 64-bit window of the stream kept in a register (reloaded where fewer bits are left in
/// it than the next reads take) and merged cells (`ZstdSequenceCell`), with no bounds check per
/// read, checked, and its bytes written at once (`UnsafeZstdBlockCopy.copy`). The last sequence
/// and the stream's last bits go through the checked loop.
///
/// Invariants: `input`, the three cell tables, the literals and the output are borrowed for the
/// call and never escaped. A sequence reads at most 31 + 16 + 16 offset and length bits and
/// 9 + 9 + 8 state bits (89 < `margin`), so while `remaining ≥ margin` at a sequence's start no
/// read goes below the stream's first bit, and every reload of the window
/// (`UnsafeZstdBitWindow`) happens with at least 128 − 63 bits left. A state indexes its table masked by the table's count less one (a power of two,
/// checked), so every cell read lies inside its table (a state is always below the count,
/// `ZstdFSE`'s invariant, so the mask changes nothing). An offset cell's extra bits are at most
/// 31 and a length cell's at most 16 (`ZstdSequenceCell`), a state's bits at most 9. A
/// sequence's bytes are written only after it is checked to lie below the block's end, inside
/// the literals left, and its match after the frame's start (`UnsafeZstdBlockCopy`'s terms; the
/// output holds the end and the slack past it, checked).
enum UnsafeZstdSequenceLoop {
  /// Bits a sequence may read, at most, plus room: the loop runs while this many are left.
  static let margin = 128

  /// Where the decoding stands: the next sequence, the stream's bits left, the three states,
  /// the repeat offsets, the literals used and the bytes produced (the frame's so far).
  struct Progress {
    var index: Int
    var remaining: Int
    var literalState: Int
    var offsetState: Int
    var matchState: Int
    var first: Int
    var second: Int
    var third: Int
    var used: Int
    var produced: Int
  }

  /// The block's room: where its bytes must end (`UnsafeZstdBlockCopy.open`'s), the frame's
  /// bound (for the message of a block past it) and the frame's first byte.
  struct Room {
    var end: Int
    var bound: ZstdBound
    var frameStart: Int
  }

  /// Decodes sequences from `progress.index` while it is below `count − 1` and the stream
  /// holds at least `margin` bits, writing each into `output` at `progress.produced`.
  ///
  /// - Throws: the errors of `ZstdSequences.execute`'s checked loop, in its order.
  static func decode(
    _ input: [UInt8], streamStart: Int, literalCells: [ZstdSequenceCell], offsetCells: [ZstdSequenceCell],
    matchCells: [ZstdSequenceCell], count: Int, literals: [UInt8], room: Room, _ progress: inout Progress,
    into output: inout [UInt8]
  ) throws(CodecError) {
    guard progress.index < count - 1, progress.remaining >= margin else { return }
    precondition(
      [literalCells, offsetCells, matchCells].allSatisfy { $0.count.nonzeroBitCount == 1 },
      "Internal inconsistency: a Zstandard sequence table whose size is not a power of two")
    precondition(
      streamStart >= 0 && streamStart + (progress.remaining + 7) / 8 <= input.count,
      "Internal inconsistency: a Zstandard bitstream past its input")
    precondition(
      room.frameStart >= 0 && room.frameStart <= progress.produced && progress.produced <= room.end
        && room.end + UnsafeZstdBlockCopy.slack <= output.count && progress.used >= 0
        && progress.used <= literals.count,
      "Internal inconsistency: a Zstandard block past its output")
    var state = progress
    var failure: CodecError?
    defer { progress = state }
    input.withUnsafeBytes { bytes in
      literalCells.withUnsafeBufferPointer { literalCells in
        offsetCells.withUnsafeBufferPointer { offsetCells in
          matchCells.withUnsafeBufferPointer { matchCells in
            literals.withUnsafeBufferPointer { literals in
              output.withUnsafeMutableBufferPointer { output in
                failure = loop(
                  UnsafeZstdBitWindow(stream: bytes.baseAddress! + streamStart, remaining: state.remaining),
                  literalCells,
                  offsetCells, matchCells, count: count, literals: literals, room: room, &state,
                  into: output.baseAddress!)
              }
            }
          }
        }
      }
    }
    if let failure { throw failure }
  }

  /// The loop of `decode` over locals; the error it stops at, if any.
  private static func loop(
    _ window: UnsafeZstdBitWindow, _ literalCells: UnsafeBufferPointer<ZstdSequenceCell>,
    _ offsetCells: UnsafeBufferPointer<ZstdSequenceCell>, _ matchCells: UnsafeBufferPointer<ZstdSequenceCell>,
    count: Int, literals: UnsafeBufferPointer<UInt8>, room: Room, _ state: inout Progress,
    into output: UnsafeMutablePointer<UInt8>
  ) -> CodecError? {
    var window = window
    var (index, used, produced) = (state.index, state.used, state.produced)
    var (literalState, offsetState, matchState) = (state.literalState, state.offsetState, state.matchState)
    var (first, second, third) = (state.first, state.second, state.third)
    defer {
      state = Progress(
        index: index, remaining: window.remaining, literalState: literalState, offsetState: offsetState,
        matchState: matchState, first: first, second: second, third: third, used: used, produced: produced)
    }
    let (literalMask, offsetMask, matchMask) = (literalCells.count - 1, offsetCells.count - 1, matchCells.count - 1)
    let (source, available, end, frameStart) = (literals.baseAddress!, literals.count, room.end, room.frameStart)
    while index < count - 1, window.remaining >= margin {
      window.reload()
      let offsetCell = offsetCells[offsetState & offsetMask]
      let matchCell = matchCells[matchState & matchMask]
      let literalCell = literalCells[literalState & literalMask]
      let offsetValue = Int(offsetCell.base) &+ window.read(offsetCell.extra)
      if window.available < Int(matchCell.extra) &+ Int(literalCell.extra) { window.reload() }
      let match = Int(matchCell.base) &+ window.read(matchCell.extra)
      let literalLength = Int(literalCell.base) &+ window.read(literalCell.extra)
      let offset: Int
      do throws(CodecError) {
        offset = try ZstdSequences.resolve(offsetValue, literalLength: literalLength, &first, &second, &third)
      } catch {
        return error
      }
      if window.available < 26 { window.reload() }
      literalState = Int(literalCell.next) &+ window.read(literalCell.bits)
      matchState = Int(matchCell.next) &+ window.read(matchCell.bits)
      offsetState = Int(offsetCell.next) &+ window.read(offsetCell.bits)
      guard literalLength <= available &- used else {
        return CodecError("a Zstandard sequence takes more literals than the block has")
      }
      guard produced &+ literalLength &+ match <= end else {
        return room.bound.error(reaching: produced &+ literalLength &+ match)
      }
      guard offset > 0, offset <= produced &+ literalLength &- frameStart else {
        return CodecError("a Zstandard match reaches before the start of the data")
      }
      UnsafeZstdBlockCopy.copy(
        literalLength, match: match, offset: offset, from: source, used: used, of: available, to: output,
        at: produced)
      produced &+= literalLength &+ match
      used &+= literalLength
      index &+= 1
    }
    return nil
  }
}
