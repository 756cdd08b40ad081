/// One chunk's cells of a numeric column converted straight into the table's column
/// (`UnsafeCSVDirectColumn`): the parallel reader's path for a column already typed integer or
/// number by the blocks before, so the chunk's cells need no piece and no merge copy.
///
/// It converts exactly as `UnsafeCSVColumnParser` does in its integer and number states: a
/// cell that is a number with a fraction widens an integer chunk to number (its cells so far
/// converted in place), and any other non-null cell makes the chunk a conflict (the column is
/// then read again as text, as the serial reader rescans it). A null is a 0 placeholder (the
/// bits of both `Int64(0)` and `0.0`) and a null row.
///
/// Invariants: `slots` points at the chunk's first row in the column's storage and at least
/// `limit` 8-byte slots from there belong to this chunk alone (its counted records), written
/// through the raw pointer (`Int64` or `Double` bits, trivial types: the column's binding is
/// never in the way); the parser writes only `slots[0..<count]`, `count <= limit` (the chunk
/// parser converts at most `limit` records); fields lie inside `buffer`, the chunk's bytes.
struct UnsafeCSVDirectParser {
  enum State { case integer, number, conflict }
  private(set) var state: State
  private let slots: UnsafeMutableRawPointer
  /// Rows written (or, once a conflict, counted).
  private(set) var count = 0
  /// This chunk's null rows (relative to its first row, increasing).
  private(set) var nullRows: [Int32] = []

  init(slots: UnsafeMutableRawPointer, limit: Int, number: Bool) {
    precondition(limit >= 0, "a chunk's rows")
    self.slots = slots
    state = number ? .number : .integer
  }

  @inline(__always)
  mutating func appendNull() {
    if state != .conflict {
      slots.storeBytes(of: 0, toByteOffset: count &* 8, as: Int64.self)
      nullRows.append(Int32(truncatingIfNeeded: count))
    }
    count &+= 1
  }

  /// Converts `field` if it is a plain number of the chunk's state (what `append` converts
  /// first): `false`, with nothing written, for anything else (a null token among them, when
  /// no null token is a plain number: `CSVNullTest.numbersFirst`).
  @inline(__always)
  mutating func appendPlain(_ field: CSVField, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    if field.quoted { return false }
    switch state {
    case .number:
      guard let value = UnsafeDecimalParser.plain(buffer, field.start, field.end) else { return false }
      slots.storeBytes(of: value, toByteOffset: count &* 8, as: Double.self)
    case .integer:
      guard let value = UnsafeDecimalParser.plainInteger(buffer, field.start, field.end) else { return false }
      slots.storeBytes(of: value, toByteOffset: count &* 8, as: Int64.self)
    case .conflict:
      return false
    }
    count &+= 1
    return true
  }

  /// Converts field `field` of every record of `run` (the cells of `buffer`): while the cells
  /// are plain numbers of the chunk's state and no null token is one (`numbersFirst`), in one
  /// tight loop; any other cell as `append` and `appendNull` convert it (`nulls` on `scanner`).
  mutating func appendColumn(
    _ run: UnsafeCSVRecordRun, field: Int, _ buffer: UnsafeBufferPointer<UInt8>,
    nulls: CSVNullTest, numbersFirst: Bool, _ scanner: UnsafeCSVScanner
  ) {
    var record = 0
    let records = run.count
    let readable = run.wordReadable(in: buffer)
    while record < records {
      if numbersFirst {
        switch state {
        case .integer:
          if let raw = readable {
            record = appendPlain(run, field: field, from: record) {
              UnsafeDecimalParser.plainInteger(readable: raw, buffer, $0, $1)
            }
          } else {
            record = appendPlain(run, field: field, from: record) { UnsafeDecimalParser.plainInteger(buffer, $0, $1) }
          }
        case .number:
          if let raw = readable {
            record = appendPlain(run, field: field, from: record) {
              UnsafeDecimalParser.plain(readable: raw, buffer, $0, $1)
            }
          } else {
            record = appendPlain(run, field: field, from: record) { UnsafeDecimalParser.plain(buffer, $0, $1) }
          }
        case .conflict:
          count &+= records &- record
          return
        }
        if record == records { return }
      }
      let cell = run.field(record, field)
      if nulls.isNull(cell, scanner) { appendNull() } else { append(cell, buffer) }
      record &+= 1
    }
  }

  /// Field `field` of the records of `run` from `record` on, converted by `convert` (a cell's
  /// start and end) into the next slots while it answers: the record it stopped at. The loop
  /// keeps the target in a local and derives each slot from the record (a store through
  /// `slots` could alias `self` as far as the compiler knows, which would reload per cell).
  @inline(__always)
  private mutating func appendPlain<Value: BitwiseCopyable>(
    _ run: UnsafeCSVRecordRun, field: Int, from record: Int,
    _ convert: (Int, Int) -> Value?
  ) -> Int {
    // Record `r`'s cell goes to slot `r - record + count`: nothing mutable is captured, so
    // nothing is stored back per cell.
    let target = slots + (count &- record) &* 8
    let stopped = run.cells(field, from: record) { row, start, end in
      guard let value = convert(start, end) else { return false }
      target.storeBytes(of: value, toByteOffset: row &* 8, as: Value.self)
      return true
    }
    count &+= stopped &- record
    return stopped
  }

  @inline(__always)
  mutating func append(_ field: CSVField, _ buffer: UnsafeBufferPointer<UInt8>) {
    switch state {
    case .number:
      if !field.quoted, let value = UnsafeDecimalParser.plain(buffer, field.start, field.end) {
        slots.storeBytes(of: value, toByteOffset: count &* 8, as: Double.self)
        count &+= 1
        return
      }
    case .integer:
      if !field.quoted, let value = UnsafeDecimalParser.plainInteger(buffer, field.start, field.end) {
        slots.storeBytes(of: value, toByteOffset: count &* 8, as: Int64.self)
        count &+= 1
        return
      }
    case .conflict:
      count &+= 1
      return
    }
    appendParsed(field, buffer)
  }

  /// The general number parse (quoted cells, spaces, exponents, long cells).
  private mutating func appendParsed(_ field: CSVField, _ buffer: UnsafeBufferPointer<UInt8>) {
    switch UnsafeDecimalParser.parse(buffer, field.start, field.end) {
    case .integer(let value):
      if state == .number {
        slots.storeBytes(of: Double(value), toByteOffset: count &* 8, as: Double.self)
      } else {
        slots.storeBytes(of: value, toByteOffset: count &* 8, as: Int64.self)
      }
    case .number(let value):
      if state == .integer {
        // Widen: the chunk's integers so far become numbers, in place.
        UnsafeCSVDirectParser.widen(slots, 0..<count)
        state = .number
      }
      slots.storeBytes(of: value, toByteOffset: count &* 8, as: Double.self)
    case nil:
      state = .conflict
      nullRows = []
    }
    count &+= 1
  }

  /// The cells `rows` of `cells`, `Int64`s, rewritten in place as the `Double`s they equal.
  static func widen(_ cells: UnsafeMutableRawPointer, _ rows: Range<Int>) {
    for row in rows {
      let value = cells.load(fromByteOffset: row &* 8, as: Int64.self)
      cells.storeBytes(of: Double(value), toByteOffset: row &* 8, as: Double.self)
    }
  }
}
