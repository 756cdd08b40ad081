/// A structural index of plain CSV records: the positions of every delimiter and line feed of
/// a run of records, found 64 bytes at a time without a branch per field, and handed out a
/// record at a time (`UnsafeCSVRecordSource` pairs it with `UnsafeCSVScanner`, which reads the
/// records the index does not take).
///
/// A record is *plain* when it holds no quote and no carriage return: then its fields end
/// exactly at its delimiters and its line feed (or at the end of the buffer), as the scanner
/// would find them. The index stops at the first quote or carriage return (`stop`); a record
/// that reaches it, or that does not have exactly `width` fields, is left to the scanner, and
/// the index starts again after it (`restart(at:)`).
///
/// Invariants: `buffer` outlives the index and holds fewer than 2³¹ bytes; `entries` holds
/// `capacity` slots, `head <= tail` and `tail + 8 <= capacity`, and `entries[head..<tail]` are the
/// positions (with `lineFlag` set for a line feed, or for the end of a buffer that does not
/// end with one) of the delimiters and line feeds of `buffer[position..<indexed]`, increasing,
/// every one below `stop <= buffer.count` (or equal to `buffer.count`, flagged, for the
/// unterminated last record; after it `position` is `buffer.count + 1` and no entry is left); `indexed <= stop` once a quote or carriage return was met.
/// Words are loaded only at offsets `i` with `i + 64 <= buffer.count` (blocks) and bytes only
/// below `buffer.count`. Unrolled writes go up to 8 slots past `tail` (the slack). Checked by
/// `_checkInvariants()` in debug builds. The owner calls `deallocate()` exactly once.
struct UnsafeCSVPlainIndex {
  let buffer: UnsafeBufferPointer<UInt8>
  let delimiter: UInt8
  let width: Int
  private let delimiterWord: UInt64
  private let entries: UnsafeMutablePointer<UInt32>
  private let capacity: Int
  private var head = 0, tail = 0
  /// Where the next record starts (the byte after the last record taken; `buffer.count + 1`
  /// after an unterminated last record, when only `.end` follows).
  private(set) var position: Int
  /// The bytes before this have been indexed (or end at `stop`).
  private var indexed: Int
  /// The first quote or carriage return at or after `position` (or `buffer.count`), once met.
  private var stop: Int

  /// Bit 31 of an entry: the position is a line feed (a record's end).
  static let lineFlag: UInt32 = 1 << 31
  /// Bytes indexed per fill: the entries stay in the cache until the records take them.
  static let window = 16 << 10
  /// Slots past `width + window` a fill may use: the last bytes of the buffer (at most 63),
  /// the end of an unterminated record (1) and the unrolled writes (8 past `tail`), with room
  /// to spare.
  private static let slack = 160

  /// What `nextRecord` found.
  enum Outcome: Equatable {
    /// A plain record of `width` fields is in the field buffer.
    case record
    /// Every record was taken.
    case end
    /// The record at this position is not plain (or not `width` wide): the scanner reads it.
    case irregular(Int)
  }

  /// An index of `buffer` from its start, or `nil` where it cannot help: a delimiter that is a
  /// quote, a line feed or a carriage return, or a buffer of 2³¹ bytes or more.
  init?(_ buffer: UnsafeBufferPointer<UInt8>, delimiter: UInt8, width: Int) {
    guard buffer.count < Int(Self.lineFlag), width >= 1, delimiter != UnsafeCSVScanner.quote,
          delimiter != UnsafeCSVScanner.newline, delimiter != UnsafeCSVScanner.carriageReturn else { return nil }
    self.buffer = buffer
    self.delimiter = delimiter
    self.width = width
    delimiterWord = UInt64(delimiter) &* UnsafeCSVScanner.ones
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
  }

  /// Puts the next record's fields into `fields` (whose capacity is at least `width`).
  @inline(__always)
  mutating func nextRecord(into fields: inout UnsafeCSVFieldBuffer) -> Outcome {
    while true {
      while tail &- head < width && indexed < stop { fill() }
      guard head < tail else { return position >= buffer.count ? .end : .irregular(position) }
      let first = entries[head]
      if first == Self.lineFlag | UInt32(truncatingIfNeeded: position) {
        // A blank line: not a record.
        head &+= 1
        position &+= 1
        continue
      }
      guard tail &- head >= width else { return .irregular(position) }
      let last = entries[head &+ width &- 1]
      var flags: UInt32 = 0
      var start = position
      precondition(fields.capacity >= width, "a field buffer of \(fields.capacity) for \(width) fields")
      let storage = fields.storage
      for k in 0..<(width &- 1) {
        let entry = entries[head &+ k]
        flags |= entry
        let end = Int(entry & ~Self.lineFlag)
        storage[k] = CSVField(start: start, end: end, quoted: false, escaped: false)
        start = end &+ 1
      }
      // Exactly `width` fields: no line feed before the last entry, one at it.
      guard flags & Self.lineFlag == 0, last & Self.lineFlag != 0 else { return .irregular(position) }
      let end = Int(last & ~Self.lineFlag)
      storage[width &- 1] = CSVField(start: start, end: end, quoted: false, escaped: false)
      fields.count = width
      fields.skipped = 0
      head &+= width
      position = end &+ 1
      return .record
    }
  }

  /// Indexes the next window (up to 256 blocks of 64 bytes, or the rest of the buffer, or up to
  /// the first quote or carriage return: possibly nothing, if one is next), after moving the
  /// entries not yet taken to the front.
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
    let newlineWord = UInt64(UnsafeCSVScanner.newline) &* UnsafeCSVScanner.ones
    let quoteWord = UInt64(UnsafeCSVScanner.quote) &* UnsafeCSVScanner.ones
    let returnWord = UInt64(UnsafeCSVScanner.carriageReturn) &* UnsafeCSVScanner.ones
    while i &+ 64 <= count && i < limit {
      var structural: UInt64 = 0, lines: UInt64 = 0, special: UInt64 = 0
      var k = 0
      while k < 64 {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &+ k, as: UInt64.self))
        let newlines = UnsafeCSVScanner.exactMatches(word, newlineWord)
        let marks = UnsafeCSVScanner.exactMatches(word, delimiterWord) | newlines
        let others = UnsafeCSVScanner.exactMatches(word, quoteWord) | UnsafeCSVScanner.exactMatches(word, returnWord)
        structural |= UnsafeCSVScanner.byteBits(marks) &<< UInt64(k)
        lines |= UnsafeCSVScanner.byteBits(newlines) &<< UInt64(k)
        special |= others
        k &+= 8
      }
      if special != 0 {
        // Index up to the first quote or carriage return, and no further.
        var first = 0
        k = 0
        while k < 64 {
          let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i &+ k, as: UInt64.self))
          let others = UnsafeCSVScanner.exactMatches(word, quoteWord) | UnsafeCSVScanner.exactMatches(word, returnWord)
          if others != 0 { first = k &+ others.trailingZeroBitCount &>> 3; break }
          k &+= 8
        }
        append(structural & ((1 &<< UInt64(first)) &- 1), lines, at: i)
        stop = i &+ first
        indexed = stop
        #if DEBUG
        _checkInvariants()
        #endif
        return
      }
      append(structural, lines, at: i)
      i &+= 64
    }
    if i &+ 64 > count {
      // The last bytes, one at a time, and the end of an unterminated last record.
      while i < count {
        let byte = buffer[i]
        if byte == UnsafeCSVScanner.quote || byte == UnsafeCSVScanner.carriageReturn {
          stop = i
          indexed = i
          #if DEBUG
          _checkInvariants()
          #endif
          return
        }
        if byte == delimiter {
          entries[tail] = UInt32(truncatingIfNeeded: i)
          tail &+= 1
        } else if byte == UnsafeCSVScanner.newline {
          entries[tail] = UInt32(truncatingIfNeeded: i) | Self.lineFlag
          tail &+= 1
        }
        i &+= 1
      }
      // (`count > position` fails only right after `restart(at: count)`: no record is left.)
      if count > 0 && buffer[count &- 1] != UnsafeCSVScanner.newline && count > position {
        entries[tail] = UInt32(truncatingIfNeeded: count) | Self.lineFlag
        tail &+= 1
      }
    }
    indexed = i
    #if DEBUG
    _checkInvariants()
    #endif
  }

  /// Appends the positions of `bits` (bit `k`: the byte `base + k`), flagged where `lines` has
  /// the bit too: eight at a time, without a branch per position.
  @inline(__always)
  private mutating func append(_ bits: UInt64, _ lines: UInt64, at base: Int) {
    let total = bits.nonzeroBitCount
    var bits = bits
    var k = tail
    let end = tail &+ total
    let origin = UInt32(truncatingIfNeeded: base)
    while k < end {
      for _ in 0..<8 {
        let offset = UInt64(truncatingIfNeeded: bits.trailingZeroBitCount)
        let line = UInt32(truncatingIfNeeded: (lines &>> offset) & 1) &<< 31
        entries[k] = (origin &+ UInt32(truncatingIfNeeded: offset)) | line
        bits &= bits &- 1
        k &+= 1
      }
    }
    tail = end
  }

  /// Checks the invariants (debug builds).
  func _checkInvariants() {
    assert(head >= 0 && head <= tail && tail + 8 <= capacity, "index \(head)..<\(tail) of \(capacity)")
    assert(position <= indexed || head == tail, "position \(position), indexed \(indexed)")
    assert(stop <= buffer.count, "stop \(stop) of \(buffer.count)")
    var previous = -1
    for k in head..<tail {
      let at = Int(entries[k] & ~Self.lineFlag)
      let line = entries[k] & Self.lineFlag != 0
      assert(at > previous && at <= buffer.count, "entry \(k) at \(at) after \(previous)")
      if at < buffer.count {
        assert(at < stop && (line ? buffer[at] == UnsafeCSVScanner.newline : buffer[at] == delimiter), "entry \(k) at \(at)")
      } else {
        assert(line, "the end entry is a record end")
      }
      previous = at
    }
  }
}
