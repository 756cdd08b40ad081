/// A run of records from the structural index (`UnsafeCSVPlainIndex.nextRun`), each exactly
/// `width` fields wide, read a column at a time: field `f` of record `r` ends at entry
/// `r * width + f` and starts one byte after the entry before it (at `first`, the run's first
/// byte, for the first field of the first record).
///
/// A field may be quoted: then its first byte is a quote and its last the closing quote (the
/// index took only quotes that quote), its content lies between them, and its end's entry has
/// `escapeFlag` if the content holds a `""` escape. A field that does not start with a quote
/// holds none. `cells` gives a field's bytes as they lie, quotes included (the converters'
/// fast loops refuse a quote, and their callers take such a cell through `field(_:_:)`).
///
/// Invariants: `entries[0..<count * width]` are index entries (a position below 2³⁰, the line
/// flag set on exactly the last entry of each record), increasing, each field's bytes inside
/// `buffer`, the index's; the entries are valid until the index's next `nextRun` or
/// `restart(at:)`, and a run is read only before then. `record < count` and `field < width` for
/// every access.
struct UnsafeCSVRecordRun {
  let entries: UnsafePointer<UInt32>
  /// The records (at least 1).
  let count: Int
  let width: Int
  /// The first byte of the first record.
  let first: Int
  /// The index's buffer.
  let buffer: UnsafeBufferPointer<UInt8>

  private static let position: UInt32 = UnsafeCSVPlainIndex.positionMask

  /// Where field `field` of record `record` starts.
  @inline(__always)
  func start(_ record: Int, _ field: Int) -> Int {
    assert(
      record >= 0 && record < count && field >= 0 && field < width,
      "field \(field) of record \(record) in a run of \(count) × \(width)")
    let at = record &* width &+ field
    return at == 0 ? first : Int(entries[at &- 1] & Self.position) &+ 1
  }

  /// Where field `field` of record `record` ends (its delimiter or line feed).
  @inline(__always)
  func end(_ record: Int, _ field: Int) -> Int {
    assert(
      record >= 0 && record < count && field >= 0 && field < width,
      "field \(field) of record \(record) in a run of \(count) × \(width)")
    return Int(entries[record &* width &+ field] & Self.position)
  }

  /// Where the run's last record ends (its line feed, or the end of the buffer): every field of
  /// the run starts at or before it.
  var lastEnd: Int { end(count &- 1, width &- 1) }

  /// The base address of `buffer` if every field of the run has 8 readable bytes from its start
  /// in it (the run ends 8 bytes or more before the buffer does), for the converters that load a
  /// cell as one word without a bounds test (`UnsafeDecimalParser.plain(readable:)`).
  func wordReadable(in buffer: UnsafeBufferPointer<UInt8>) -> UnsafeRawPointer? {
    lastEnd &+ 8 <= buffer.count ? buffer.baseAddress.map(UnsafeRawPointer.init) : nil
  }

  /// Calls `body` with each record from `record` on, in order, and the start and end of its
  /// field `field`, while it returns `true`: the record it returned `false` for (or `count`).
  /// Walks the entries a record apart, with no multiply and no test of the run's first cell per
  /// cell.
  @inline(__always)
  func cells(_ field: Int, from record: Int, _ body: (_ record: Int, _ start: Int, _ end: Int) -> Bool) -> Int {
    assert(
      record >= 0 && record <= count && field >= 0 && field < width,
      "field \(field) from record \(record) in a run of \(count) × \(width)")
    var record = record
    if record == 0 && field == 0 && count > 0 {
      // The run's first cell starts at `first` (no entry before it).
      guard body(0, first, end(0, 0)) else { return 0 }
      record = 1
    }
    var entry = entries + (record &* width &+ field)
    while record < count {
      // The entry before is the previous field's end (or the previous record's line feed).
      guard body(record, Int(entry[-1] & Self.position) &+ 1, Int(entry[0] & Self.position)) else { return record }
      record &+= 1
      entry += width
    }
    return record
  }

  /// Whether a cell from `start` to `end` (as `cells` gives it) is quoted.
  @inline(__always)
  func isQuoted(_ start: Int, _ end: Int) -> Bool {
    start < end && buffer[start] == UnsafeCSVScanner.quote
  }

  /// Whether field `field` of record `record`, quoted, holds a `""` escape.
  @inline(__always)
  func isEscaped(_ record: Int, _ field: Int) -> Bool {
    entries[record &* width &+ field] & UnsafeCSVPlainIndex.escapeFlag != 0
  }

  /// Field `field` of record `record` as the scanner gives it (a quoted field's content between
  /// its quotes).
  @inline(__always)
  func field(_ record: Int, _ field: Int) -> CSVField {
    let start = start(record, field), end = end(record, field)
    guard isQuoted(start, end) else { return CSVField(start: start, end: end, quoted: false, escaped: false) }
    return CSVField(start: start &+ 1, end: end &- 1, quoted: true, escaped: isEscaped(record, field))
  }

  /// Puts record `record`'s fields into `fields` (whose capacity is at least `width`).
  func copy(_ record: Int, into fields: inout UnsafeCSVFieldBuffer) {
    precondition(fields.capacity >= width, "a field buffer of \(fields.capacity) for \(width) fields")
    for index in 0..<width { fields.storage[index] = field(record, index) }
    fields.count = width
    fields.skipped = 0
  }
}
