/// Phase one of the CSV reader: a quote-aware scan that finds the fields of each record (RFC
/// 4180: quoted fields, `""` escapes, line breaks inside quotes, CRLF or LF record ends).
///
/// Invariants: `buffer` outlives the scanner (it is only used inside the `withUnsafeBufferPointer`
/// call that made it); every index the scanner reads is checked against `buffer.count`, and
/// every `CSVField` it reports satisfies `0 <= start <= end <= buffer.count`. `line` is the
/// physical line (from 1) of `position`, counting every LF, inside quotes too. `lineBreaks`,
/// the field scan and `skipFields` load 8-byte words only at offsets `i` with
/// `i + 8 <= buffer.count`, read as little-endian words (the first byte lowest, whatever the
/// platform); the field scan's 64-byte blocks start only at `i` with `i + 64 <= buffer.count`,
/// and `blockMask` always marks the candidate bytes of `blockBase ..< blockBase + 64`. Checked by
/// `_checkInvariants(_:)` after each record in debug builds.
struct UnsafeCSVScanner {
  let buffer: UnsafeBufferPointer<UInt8>
  let delimiter: UInt8
  private(set) var position = 0
  private(set) var line = 1
  /// The quote bytes read as quoting (opening, closing and `""` escapes): a chunk with more
  /// quote bytes than this has a quote inside an unquoted field (see `CSVReader+Blocks`).
  private(set) var quotingBytes = 0
  /// Quote bytes inside unquoted fields (taken literally, as RFC 4180 readers do).
  private(set) var strayQuotes = 0
  /// Bit `b` is set for the bytes below 64 that may end an unquoted field (LF, CR, a low
  /// delimiter) or are counted in one (a quote).
  let stopMask: UInt64

  /// The delimiter in every byte of a word.
  let delimiterWord: UInt64
  /// The start of the 64-byte block whose candidate bytes `blockMask` marks (see
  /// `candidateMask`), kept from record to record; -64 before the first.
  private var blockBase = -64
  /// Bit `k` set for the byte `blockBase + k` that may end an unquoted field.
  private var blockMask: UInt64 = 0

  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080
  static let quote = UInt8(ascii: "\"")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")

  /// A scanner at the start of `buffer`, past a UTF-8 byte order mark if there is one (unless
  /// `buffer` is a chunk from the middle of a file: `atFileStart` false).
  init(_ buffer: UnsafeBufferPointer<UInt8>, delimiter: UInt8, atFileStart: Bool = true) {
    self.buffer = buffer
    self.delimiter = delimiter
    var mask: UInt64 = (1 << UInt64(Self.newline)) | (1 << UInt64(Self.carriageReturn)) | (1 << UInt64(Self.quote))
    if delimiter < 64 { mask |= 1 << UInt64(delimiter) }
    stopMask = mask
    delimiterWord = UInt64(delimiter) &* Self.ones
    if atFileStart && buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
  }

  /// Continues at `position` (a record's start, after records read elsewhere: see
  /// `UnsafeCSVRecordSource`); `line` stays as it was.
  mutating func resume(at position: Int) {
    precondition(position >= 0 && position <= buffer.count, "resume at \(position) of \(buffer.count)")
    self.position = position
    blockBase = -64
    blockMask = 0
  }

  /// Reads the next record into `fields` (replacing its contents), skipping blank lines.
  ///
  /// - Returns: the line the record starts on, or `nil` at the end of the buffer.
  /// - Throws: `CSVError` for an unterminated quoted field or text after a closing quote.
  ///
  /// - Parameter skipFrom: the fields from this index on are only counted, not stored (their
  ///   `fields` slots are not written), when they hold no quote: the reader reads none of them.
  mutating func nextRecord(into fields: inout UnsafeCSVFieldBuffer, skipFrom: Int = .max) throws(CSVError) -> Int? {
    fields.count = 0
    fields.skipped = 0
    let count = buffer.count
    let raw = buffer.baseAddress.map(UnsafeRawPointer.init)
    var i = position
    var base = blockBase, mask = blockMask
    // Blank lines are not records.
    while i < count {
      if buffer[i] == Self.newline { i += 1; line += 1; continue }
      if buffer[i] == Self.carriageReturn && i + 1 < count && buffer[i + 1] == Self.newline {
        i += 2; line += 1; continue
      }
      break
    }
    guard i < count else {
      position = i
      return nil
    }
    let startLine = line
    while true {
      if i < count && buffer[i] == Self.quote {
        let fieldLine = line
        i += 1
        let start = i
        var escaped = false
        while true {
          guard i < count else { throw CSVError(line: fieldLine, "a quoted field is not closed") }
          let byte = buffer[i]
          if byte == Self.quote {
            if i + 1 < count && buffer[i + 1] == Self.quote {
              escaped = true
              quotingBytes += 2
              i += 2
              continue
            }
            break
          }
          if byte == Self.newline { line += 1 }
          i += 1
        }
        fields.append(CSVField(start: start, end: i, quoted: true, escaped: escaped))
        quotingBytes += 2
        i += 1
        if i < count {
          let next = buffer[i]
          let endsLine =
            next == Self.newline || (next == Self.carriageReturn && i + 1 < count && buffer[i + 1] == Self.newline)
          if next != delimiter && !endsLine {
            throw CSVError(line: line, "unexpected text after a closing quote (field \(fields.count))")
          }
        }
      } else {
        let start = i
        while true {
          let offset = i &- base
          if UInt(bitPattern: offset) < 64 {
            // In the current block: the next candidate byte from its mask (none: the next block).
            let bits = mask &>> UInt64(offset)
            if bits == 0 { i = base &+ 64; continue }
            i &+= bits.trailingZeroBitCount
          } else if let raw, i &+ 64 <= count {
            base = i
            mask = Self.candidateMask(raw, at: i, delimiterWord)
            continue
          } else if let raw, i &+ 8 <= count {
            // Eight bytes at a time up to the first that may end the field (below `"` + 1, or
            // the delimiter); ordinary bytes cost no test of their own.
            let stop = Self.firstCandidate(
              UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)), delimiterWord)
            if stop == 8 { i &+= 8; continue }
            i &+= stop
          } else if i >= count {
            break
          }
          let byte = buffer[i]
          // One test per byte: is it one of the (few, low) bytes that end a field?
          if byte < 64 ? (stopMask &>> UInt64(byte)) & 1 == 0 : byte != delimiter {
            i += 1
            continue
          }
          if byte == delimiter || byte == Self.newline { break }
          if byte == Self.carriageReturn && i + 1 < count && buffer[i + 1] == Self.newline { break }
          if byte == Self.quote { strayQuotes += 1 }
          i += 1
        }
        fields.append(CSVField(start: start, end: i, quoted: false, escaped: false))
      }
      if i >= count { break }
      let byte = buffer[i]
      if byte == delimiter {
        i += 1
        if i >= count { fields.append(CSVField(start: i, end: i, quoted: false, escaped: false)); break }
        if fields.count >= skipFrom, let (end, more) = skipFields(from: i) {
          // The remaining fields are not wanted: counted (for the width check), not stored.
          fields.skipped = more
          i = end
          if i < count { i += 1; line += 1 }
          break
        }
        continue
      }
      i += byte == Self.carriageReturn ? 2 : 1
      line += 1
      break
    }
    position = i
    blockBase = base
    blockMask = mask
    #if DEBUG
    _checkInvariants(fields)
    #endif
    return startLine
  }

  /// For fields from `start` that the reader does not want: where the record ends (its line
  /// feed, or the end of the buffer) and how many fields it has from `start`, or `nil` if a
  /// quote comes first (the caller scans them one by one).
  private func skipFields(from start: Int) -> (end: Int, fields: Int)? {
    let count = buffer.count
    var i = start
    var delimiters = 0
    if let base = buffer.baseAddress {
      let raw = UnsafeRawPointer(base)
      let newlineWord = UInt64(Self.newline) &* Self.ones, quoteWord = UInt64(Self.quote) &* Self.ones
      while i &+ 8 <= count {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        // The first line feed or quote (exact for the first; the delimiters exact for each).
        let stops = Self.firstMatches(word, newlineWord) | Self.firstMatches(word, quoteWord)
        let ofDelimiter = Self.exactMatches(word, delimiterWord)
        if stops == 0 {
          delimiters &+= ofDelimiter.nonzeroBitCount
          i &+= 8
          continue
        }
        let first = stops.trailingZeroBitCount
        // The delimiters before the stop byte.
        delimiters &+= (ofDelimiter & ((1 &<< UInt64(first)) &- 1)).nonzeroBitCount
        i &+= first &>> 3
        return buffer[i] == Self.quote ? nil : (i, delimiters &+ 1)
      }
    }
    while i < count {
      let byte = buffer[i]
      if byte == Self.quote { return nil }
      if byte == Self.newline { return (i, delimiters &+ 1) }
      if byte == delimiter { delimiters &+= 1 }
      i &+= 1
    }
    return (count, delimiters &+ 1)
  }

  /// Checks the invariants for the record just read into `fields` (debug builds).
  func _checkInvariants(_ fields: UnsafeCSVFieldBuffer) {
    fields._checkInvariants()
    assert(
      position >= 0 && position <= buffer.count && line >= 1, "scanner at \(position) of \(buffer.count), line \(line)")
    if blockBase >= 0, let base = buffer.baseAddress {
      assert(
        blockBase + 64 <= buffer.count
          && blockMask == Self.candidateMask(UnsafeRawPointer(base), at: blockBase, delimiterWord),
        "block at \(blockBase)")
    }
    for index in 0..<fields.count {
      let field = fields[index]
      assert(
        0 <= field.start && field.start <= field.end && field.end <= buffer.count,
        "field \(index): \(field.start)..<\(field.end)")
    }
  }
}
