/// The bulk of a Zstandard block's sequence decoding (`ZstdSequences.execute`), over buffer
/// pointers: while the bitstream holds at least `margin` bits, each sequence is read from a
/// 64-bit window of the stream kept in a register (reloaded where fewer bits are left in it
/// than the next reads take) and merged cells (`ZstdSequenceCell`), with no bounds check per
/// read. The last sequence and the stream's last bits go through the checked loop.
///
/// Invariants: `input` and the three cell tables are borrowed for the call and never escaped.
/// A sequence reads at most 31 + 16 + 16 offset and length bits and 9 + 9 + 8 state bits
/// (89 < `margin`), so while `remaining ≥ margin` at a sequence's start no read goes below
/// the stream's first bit. A reload puts the window at byte `(remaining − 57) / 8` of the stream
/// (so at least 57 bits lie below `remaining` in it) and loads the 8 bytes there, which lie
/// inside the stream: `(remaining − 57) / 8 + 8 ≤ (remaining + 7) / 8 ≤` the stream's bytes. A
/// state indexes its table masked by the table's count less one (a power of two, checked), so
/// every cell read lies inside its table (a state is always below the count, `ZstdFSE`'s
/// invariant, so the mask changes nothing). An offset cell's extra bits are at most 31 and a
/// length cell's at most 16 (`ZstdSequenceCell`), a state's bits at most 9. Decoded sequences
/// are held in a temporary buffer of `chunk`, each initialized once at an index below `chunk`
/// (the buffer is appended to the block's sequences and emptied when full, and at the end).
enum UnsafeZstdSequenceLoop {
  /// Bits a sequence may read, at most, plus room: the loop runs while this many are left.
  static let margin = 128
  /// Sequences gathered in a buffer of this many before they are appended to the block's.
  static let chunk = 256

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

  /// Decodes sequences from `progress.index` while it is below `count − 1` and the stream
  /// holds at least `margin` bits, appending them to `decoded`.
  ///
  /// - Throws: the errors of `ZstdSequences.execute`'s checked loop, in its order.
  static func decode(
    _ input: [UInt8], streamStart: Int, literalCells: [ZstdSequenceCell], offsetCells: [ZstdSequenceCell],
    matchCells: [ZstdSequenceCell], count: Int, literals: Int, frameStart: Int, limit: Int,
    _ progress: inout Progress, into decoded: inout [UnsafeZstdBlockCopy.Sequence]
  ) throws(CodecError) {
    guard progress.index < count - 1, progress.remaining >= margin else { return }
    precondition(
      [literalCells, offsetCells, matchCells].allSatisfy { $0.count.nonzeroBitCount == 1 },
      "Internal inconsistency: a Zstandard sequence table whose size is not a power of two")
    precondition(
      streamStart >= 0 && streamStart + (progress.remaining + 7) / 8 <= input.count,
      "Internal inconsistency: a Zstandard bitstream past its input")
    var state = progress
    var failure: CodecError?
    defer { progress = state }
    input.withUnsafeBytes { bytes in
      literalCells.withUnsafeBufferPointer { literalCells in
        offsetCells.withUnsafeBufferPointer { offsetCells in
          matchCells.withUnsafeBufferPointer { matchCells in
            withUnsafeTemporaryAllocation(of: UnsafeZstdBlockCopy.Sequence.self, capacity: chunk) { pending in
              failure = loop(
                Window(stream: bytes.baseAddress! + streamStart, remaining: state.remaining), literalCells, offsetCells,
                matchCells, count: count, literals: literals, frameStart: frameStart, limit: limit, &state,
                pending: pending.baseAddress!, into: &decoded)
            }
          }
        }
      }
    }
    if let failure { throw failure }
  }

  /// A 64-bit window of the stream's bits from bit `at` (a multiple of 8), and the bits not yet
  /// read (reads go down from `remaining`).
  private struct Window {
    let stream: UnsafeRawPointer
    var remaining: Int
    var bits: UInt64 = 0
    var at = 0

    init(stream: UnsafeRawPointer, remaining: Int) {
      self.stream = stream
      self.remaining = remaining
    }

    /// Bits below `remaining` left in the window.
    var available: Int { remaining &- at }

    /// The window moved to hold at least 57 bits below `remaining` (`remaining ≥ 64`).
    @inline(__always) mutating func reload() {
      at = (remaining &- 57) & ~7
      bits = UInt64(littleEndian: stream.loadUnaligned(fromByteOffset: at &>> 3, as: UInt64.self))
    }

    /// The next `count` bits (at most `available`).
    @inline(__always) mutating func read(_ count: UInt8) -> Int {
      remaining &-= Int(count)
      let shifted = bits &>> UInt64(truncatingIfNeeded: remaining &- at)
      return Int(truncatingIfNeeded: shifted & ((1 &<< UInt64(count)) &- 1))
    }
  }

  /// The loop of `decode` over locals; the error it stops at, if any.
  private static func loop(
    _ window: Window, _ literalCells: UnsafeBufferPointer<ZstdSequenceCell>,
    _ offsetCells: UnsafeBufferPointer<ZstdSequenceCell>, _ matchCells: UnsafeBufferPointer<ZstdSequenceCell>,
    count: Int, literals: Int, frameStart: Int, limit: Int, _ state: inout Progress,
    pending: UnsafeMutablePointer<UnsafeZstdBlockCopy.Sequence>, into decoded: inout [UnsafeZstdBlockCopy.Sequence]
  ) -> CodecError? {
    var held = 0
    defer { decoded.append(contentsOf: UnsafeBufferPointer(start: pending, count: held)) }
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
      guard literalLength <= literals &- used else {
        return CodecError("a Zstandard sequence takes more literals than the block has")
      }
      guard produced &+ literalLength &+ match <= limit else {
        return CodecError("the data decompresses to more than \(limit) bytes")
      }
      produced &+= literalLength
      used &+= literalLength
      guard offset > 0, offset <= produced &- frameStart else {
        return CodecError("a Zstandard match reaches before the start of the data")
      }
      produced &+= match
      (pending + held).initialize(
        to: UnsafeZstdBlockCopy.Sequence(literalLength: literalLength, matchLength: match, offset: offset))
      held &+= 1
      if held == chunk {
        decoded.append(contentsOf: UnsafeBufferPointer(start: pending, count: held))
        held = 0
      }
      index &+= 1
    }
    return nil
  }
}
