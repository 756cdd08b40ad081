/// A structural index of CSV records: the positions of every delimiter and line feed outside
/// quotes of a run of records, found 64 bytes at a time (16-byte vector compares, the matches
/// gathered into bit masks) without a branch per field, and handed out as runs of whole records
/// (`UnsafeCSVRecordRun`, read a column at a time; `UnsafeCSVRecordSource` pairs the index
/// with `UnsafeCSVScanner`, which reads the records the index does not take).
///
/// Quoted fields are indexed too: a block holding a quote has its quotes' bits turned into an
/// inside-quotes mask (a prefix XOR, carried from block to block), and the delimiters and line
/// feeds inside quotes are not positions. A quote is taken only where the scanner would read it
/// as quoting: opening a field (after a delimiter, a line feed, the record's start, or a closing
/// quote: a `""` escape), or closing one (before a delimiter, a line feed, a quote or the
/// buffer's end). A field that holds a `""` escape has `escapeFlag` on its end's entry.
///
/// The index stops (`stop`) at the first quote it does not take (a stray quote, text after a
/// closing quote), the first carriage return outside quotes, or, at the buffer's end, the
/// opening quote of a field never closed; a record that reaches it, or that does not have
/// exactly `width` fields, is left to the scanner, and the index starts again after it
/// (`restart(at:)`). So every record it gives has the fields the scanner would find, and every
/// error is the scanner's.
///
/// Invariants: `buffer` outlives the index and holds fewer than 2³⁰ bytes; `entries` holds
/// `capacity` slots, `head <= tail` and `tail + 8 <= capacity`, and `entries[head..<tail]` are the
/// positions (with `lineFlag` set for a line feed, or for the end of a buffer that does not
/// end with one; `escapeFlag` for a field holding `""`) of the delimiters and line feeds outside
/// quotes of `buffer[position..<indexed]`, increasing, every one below `stop <= buffer.count`
/// (or equal to `buffer.count`, flagged, for the unterminated last record; after it `position`
/// is `buffer.count + 1` and no entry is left); `indexed <= stop` once the index stopped.
/// `quoting` is the state after byte `indexed - 1` (inside quotes, a quote may open next, the
/// field in progress holds an escape), from a record's start at `position` or the last restart.
/// Vectors and words are loaded only inside blocks `i ..< i + 64` with `i + 64 <= buffer.count`
/// (the last bytes are copied to a padded block first), and bytes only below `buffer.count`.
/// Unrolled writes go up to 8 slots past `tail` (the slack). Checked by `_checkInvariants()` in
/// debug builds. The owner calls `deallocate()` exactly once.
struct UnsafeCSVPlainIndex {
  let buffer: UnsafeBufferPointer<UInt8>
  let delimiter: UInt8
  let width: Int
  let entries: UnsafeMutablePointer<UInt32>
  private let capacity: Int
  var head = 0, tail = 0
  /// Where the next record starts (the byte after the last record taken; `buffer.count + 1`
  /// after an unterminated last record, when only `.end` follows).
  private(set) var position: Int
  /// The bytes before this have been indexed (or end at `stop`).
  var indexed: Int
  /// Where the index stopped (see the type), or `buffer.count`.
  var stop: Int
  /// The quoting state after the indexed bytes.
  var quoting = Quoting()

  /// The quoting state carried from one block to the next.
  struct Quoting {
    /// All ones inside quotes, else 0.
    var inside: UInt64 = 0
    /// 1 if a quote at the next byte may open a field (the previous byte is a delimiter or a
    /// line feed outside quotes, or a closing quote; or the next byte starts a record).
    var mayOpen: UInt64 = 1
    /// The field in progress holds a `""` escape (its end's entry gets `escapeFlag`).
    var escapePending = false
    /// The last opening quote (where the index stops if the buffer ends inside quotes).
    var lastOpen = 0
  }

  /// Bit 31 of an entry: the position is a line feed (a record's end).
  static let lineFlag: UInt32 = 1 << 31
  /// Bit 30 of an entry: the field ending there is quoted and holds a `""` escape.
  static let escapeFlag: UInt32 = 1 << 30
  /// The position bits of an entry.
  static let positionMask: UInt32 = escapeFlag &- 1
  /// Bytes indexed per fill: the entries stay in the cache until the records take them.
  static let window = 16 << 10
  /// Slots past `width + window` a fill may use: the last bytes of the buffer (at most 63),
  /// the end of an unterminated record (1) and the unrolled writes (8 past `tail`), with room
  /// to spare.
  private static let slack = 160

  /// What `nextRun` found.
  enum Outcome {
    /// Records of `width` fields each (at least one).
    case run(UnsafeCSVRecordRun)
    /// Every record was taken.
    case end
    /// The record at this position reaches where the index stopped (or is not `width` wide):
    /// the scanner reads it.
    case irregular(Int)
  }

  /// An index of `buffer` from its start, or `nil` where it cannot help: a delimiter that is a
  /// quote, a line feed or a carriage return, or a buffer of 2³⁰ bytes or more.
  init?(_ buffer: UnsafeBufferPointer<UInt8>, delimiter: UInt8, width: Int) {
    guard buffer.count < Int(Self.escapeFlag), width >= 1, delimiter != UnsafeCSVScanner.quote,
      delimiter != UnsafeCSVScanner.newline, delimiter != UnsafeCSVScanner.carriageReturn
    else { return nil }
    self.buffer = buffer
    self.delimiter = delimiter
    self.width = width
    capacity = width + Self.window + Self.slack
    entries = .allocate(capacity: capacity)
    position = 0
    indexed = 0
    stop = buffer.count
  }

  func deallocate() { entries.deallocate() }

  /// Starts again at `position` (after a record the scanner read).
  mutating func restart(at position: Int) {
    head = 0
    tail = 0
    self.position = position
    indexed = position
    stop = buffer.count
    quoting = Quoting()
  }

  /// The next run of records, at most `most` (at least 1): the records from `position` on that
  /// the index holds whole, up to the first that reaches where it stopped, is not `width` wide,
  /// or is blank (blank lines before the run are skipped). The run's entries are valid until
  /// the next call to `nextRun` or `restart(at:)`.
  @inline(__always)
  mutating func nextRun(most: Int) -> Outcome {
    assert(most >= 1, "a run of at most \(most) records")
    while true {
      while tail &- head < width && indexed < stop { fill() }
      guard head < tail else { return position >= buffer.count ? .end : .irregular(position) }
      if entries[head] == Self.lineFlag | UInt32(truncatingIfNeeded: position) {
        // A blank line: not a record.
        head &+= 1
        position &+= 1
        continue
      }
      let available = Swift.min(most, (tail &- head) / width)
      var records = 0, at = head
      var start = UInt32(truncatingIfNeeded: position)
      while records < available {
        var flags: UInt32 = 0
        for k in 0..<(width &- 1) { flags |= entries[at &+ k] }
        let last = entries[at &+ width &- 1]
        // Exactly `width` fields: no line feed before the last entry, one at it (and, one
        // field wide, not a blank line).
        guard flags & Self.lineFlag == 0, last & Self.lineFlag != 0, width > 1 || last != Self.lineFlag | start else {
          break
        }
        start = (last & Self.positionMask) &+ 1
        records &+= 1
        at &+= width
      }
      guard records > 0 else { return .irregular(position) }
      let run = UnsafeCSVRecordRun(
        entries: UnsafePointer(entries + head), count: records, width: width, first: position,
        buffer: buffer)
      head = at
      position = Int(start)
      return .run(run)
    }
  }

  /// Indexes the next window (up to 256 blocks of 64 bytes, or the rest of the buffer, or up to
  /// where the index stops: possibly nothing), after moving the entries not yet taken to the
  /// front.
  private mutating func fill() {
    if head > 0 {
      let left = tail &- head
      entries.update(from: entries + head, count: left)
      head = 0
      tail = left
    }
    let count = buffer.count
    guard let base = buffer.baseAddress else { indexed = stop; return }
    let raw = UnsafeRawPointer(base)
    let limit = indexed &+ Self.window
    var i = indexed
    let delimiters = SIMD16<UInt8>(repeating: delimiter), newlines = SIMD16<UInt8>(repeating: UnsafeCSVScanner.newline)
    let quotes = SIMD16<UInt8>(repeating: UnsafeCSVScanner.quote),
      returns = SIMD16<UInt8>(repeating: UnsafeCSVScanner.carriageReturn)
    let highBits = SIMD8<UInt16>(repeating: 0x8080)
    while i &+ 64 <= count && i < limit {
      // 16 bytes compared at a time; each 8-byte half's matches (0xFF bytes) go to bit `w` of
      // each byte (`w`: the half's place in the block), then one transpose puts the bit of
      // byte `j` of half `w` at `8w + j`. The bits are gathered in vector registers: part `p`'s
      // high bits shifted right by `7 - 2p` (16-bit lanes: a byte's high bit stays in its byte)
      // put the low half's at bit `2p`; the high half's move up one when the lanes are read.
      var structuralLanes = SIMD8<UInt16>(), lineLanes = SIMD8<UInt16>()
      var special = SIMDMask<SIMD16<Int8>>(repeating: false)
      for part in 0..<4 {
        let bytes = raw.loadUnaligned(fromByteOffset: i &+ part &* 16, as: SIMD16<UInt8>.self)
        let ends = bytes .== newlines
        let marks = (bytes .== delimiters) .| ends
        special = special .| (bytes .== quotes) .| (bytes .== returns)
        let shift = UInt16(truncatingIfNeeded: 7 &- part &* 2)
        structuralLanes |= (unsafeBitCast(marks, to: SIMD8<UInt16>.self) & highBits) &>> shift
        lineLanes |= (unsafeBitCast(ends, to: SIMD8<UInt16>.self) & highBits) &>> shift
      }
      let structural = Self.bits(structuralLanes), lines = Self.bits(lineLanes)
      let specialHalves = unsafeBitCast(special, to: SIMD2<UInt64>.self)
      if specialHalves[0] | specialHalves[1] != 0 {
        // Quotes or carriage returns: the quoted block's masks (stopping where the index stops).
        let (quoteBits, returnBits) = Self.quotesAndReturns(raw, at: i)
        let next = i &+ 64 < count ? base[i &+ 64] : nil
        guard
          indexQuoted(
            structural: structural, lines: lines, quotes: quoteBits, returns: returnBits, at: i, valid: 64, next: next)
        else { return }
      } else if quoting.inside != 0 {
        // Inside quotes throughout: no position.
      } else {
        append(structural, lines, escapes: 0, at: i)
        quoting.mayOpen = structural &>> 63
      }
      i &+= 64
    }
    if i &+ 64 > count {
      // The last bytes, in a padded block (bits past them cleared), then the end of an
      // unterminated last record.
      if i < count {
        let valid = count &- i
        let masks = Self.tailMasks(UnsafeBufferPointer(rebasing: buffer[i...]), delimiter: delimiter)
        guard
          indexQuoted(
            structural: masks.structural, lines: masks.lines, quotes: masks.quotes, returns: masks.returns,
            at: i, valid: valid, next: nil)
        else { return }
        i = count
      }
      if quoting.inside != 0 {
        // A quoted field never closed: the scanner reports it.
        stopAt(quoting.lastOpen)
        return
      }
      // (`count > position` fails only right after `restart(at: count)`: no record is left.)
      if count > 0 && buffer[count &- 1] != UnsafeCSVScanner.newline && count > position {
        entries[tail] =
          UInt32(truncatingIfNeeded: count) | Self.lineFlag | (quoting.escapePending ? Self.escapeFlag : 0)
        quoting.escapePending = false
        tail &+= 1
      }
    }
    indexed = i
    #if DEBUG
    _checkInvariants()
    #endif
  }

  /// Stops the index at `at` (no entry at or past it is left).
  mutating func stopAt(_ at: Int) {
    stop = at
    indexed = at
    #if DEBUG
    _checkInvariants()
    #endif
  }

  /// The block's bit per byte from its gathered lanes: the low half's bits, the high half's one
  /// place up, transposed (bit `k`: byte `k` of the block).
  @inline(__always)
  static func bits(_ lanes: SIMD8<UInt16>) -> UInt64 {
    let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    return transposed(UInt64(littleEndian: halves[0]) | UInt64(littleEndian: halves[1]) &<< 1)
  }

  /// `bits` as an 8 × 8 bit matrix (byte `j`, bit `k`) transposed: the bit of byte `j`, bit `k`
  /// moves to byte `k`, bit `j` (three rounds of swaps of the blocks off the diagonal).
  @inline(__always)
  static func transposed(_ bits: UInt64) -> UInt64 {
    var x = bits
    var t = (x ^ (x &>> 7)) & 0x00AA_00AA_00AA_00AA
    x = x ^ t ^ (t &<< 7)
    t = (x ^ (x &>> 14)) & 0x0000_CCCC_0000_CCCC
    x = x ^ t ^ (t &<< 14)
    t = (x ^ (x &>> 28)) & 0x0000_0000_F0F0_F0F0
    return x ^ t ^ (t &<< 28)
  }

  /// Appends the positions of `bits` (bit `k`: the byte `base + k`), flagged where `lines` (a
  /// subset of `bits`: every line feed's bit is also in `bits`) has the bit too: eight at a
  /// time, without a branch per position, then the flag set on the (few) line feeds' entries,
  /// and `escapeFlag` on the end of each field holding one of `escapes` (`""` escapes, rare).
  @inline(__always)
  mutating func append(_ bits: UInt64, _ lines: UInt64, escapes: UInt64, at base: Int) {
    assert(lines & ~bits == 0, "every line feed is a position")
    let first = entries + tail
    let origin = UInt32(truncatingIfNeeded: base)
    var rest = bits
    var slot = first
    while rest != 0 {
      // Unrolled by hand (a `for _ in 0..<8` stayed a counted loop). Past the last position the
      // slots get `origin + 64` (no bit left): slack that the next block writes over, never an
      // entry (`tail` moves by the positions only).
      slot[0] = Self.nextPosition(&rest, origin)
      slot[1] = Self.nextPosition(&rest, origin)
      slot[2] = Self.nextPosition(&rest, origin)
      slot[3] = Self.nextPosition(&rest, origin)
      slot[4] = Self.nextPosition(&rest, origin)
      slot[5] = Self.nextPosition(&rest, origin)
      slot[6] = Self.nextPosition(&rest, origin)
      slot[7] = Self.nextPosition(&rest, origin)
      slot += 8
    }
    var ends = lines
    while ends != 0 {
      // The line feed's entry: after the positions below it.
      let below = bits & ((ends & (0 &- ends)) &- 1)
      first[below.nonzeroBitCount] |= Self.lineFlag
      ends &= ends &- 1
    }
    if escapes != 0 || quoting.escapePending { flagEscapes(bits, escapes, first) }
    tail &+= bits.nonzeroBitCount
  }

  /// The position of the lowest bit of `bits` (`origin + 64` if none), which it clears.
  @inline(__always)
  private static func nextPosition(_ bits: inout UInt64, _ origin: UInt32) -> UInt32 {
    let position = origin &+ UInt32(truncatingIfNeeded: bits.trailingZeroBitCount)
    bits &= bits &- 1
    return position
  }

  /// Checks the invariants (debug builds).
  func _checkInvariants() {
    assert(head >= 0 && head <= tail && tail + 8 <= capacity, "index \(head)..<\(tail) of \(capacity)")
    assert(position <= indexed || head == tail, "position \(position), indexed \(indexed)")
    assert(stop <= buffer.count, "stop \(stop) of \(buffer.count)")
    var previous = -1
    for k in head..<tail {
      let at = Int(entries[k] & Self.positionMask)
      let line = entries[k] & Self.lineFlag != 0
      assert(at > previous && at <= buffer.count, "entry \(k) at \(at) after \(previous)")
      if at < buffer.count {
        assert(
          at < stop && (line ? buffer[at] == UnsafeCSVScanner.newline : buffer[at] == delimiter), "entry \(k) at \(at)")
      } else {
        assert(line, "the end entry is a record end")
      }
      previous = at
    }
  }
}
