import FlowRuntime

/// Phase two of the CSV reader: converts each field of one column as it is scanned, inferring
/// the column's type (integer → number → bool → string) as it goes.
///
/// A column starts untyped (only nulls so far); its first non-null cell picks a type; a later
/// cell may widen integer to number. A cell that fits neither a numeric nor a bool column
/// turns it into a string column whose earlier cells were converted already: the column is
/// marked `needsRescan` and read again as text in a second scan (rare: only such columns).
///
/// Invariants: fields come from an `UnsafeCSVScanner` over the same buffer (in bounds);
/// `count` cells were appended, with `leadingNulls` of them still implicit while untyped. The
/// reader's parsers are reached through a buffer pointer only inside the
/// `withUnsafeMutableBufferPointer` call over its array, at indices below the header's width.
struct UnsafeCSVColumnParser {
  enum State { case untyped, integer, number, bool, string, needsRescan }
  private(set) var state = State.untyped
  private var leadingNulls = 0
  /// Rows expected (an estimate from the first record's length), reserved once typed.
  var expectedRows = 0
  /// The bytes of the records (an upper bound of a string column's bytes).
  var expectedTextBytes = 0
  /// The length of the first text cell (to estimate a string column's bytes).
  private var firstTextLength = 0
  private var integers: [Int64] = []
  private var numbers: [Double] = []
  private var bools: [Bool] = []
  private var strings = StringColumn()
  /// A string column's dictionary while it stays small (`CSVDictionaryEncoding`), its cells
  /// then being `codes`; `nil` once flat (the cells in `strings`).
  private var dictionary: StringDictionaryBuilder?
  private var codes: [UInt32] = []
  /// The dictionary's codes of short cells seen before (emptied with each new dictionary).
  private var shortCodes = UnsafeCSVShortCodes()
  /// Whether a string column starts in the dictionary layout.
  private var encodes: Bool
  /// The rows appended so far, and which of them are null (increasing).
  private var count = 0
  private var nullRows: [Int32] = []

  /// A parser; a string column starts in the dictionary layout if `encodes`
  /// (`CSVReadStrategy.encodesDictionaries`).
  init(encodes: Bool) { self.encodes = encodes }

  /// A parser that treats every non-null cell as text (for the rescan of a column).
  static func text(encodes: Bool) -> UnsafeCSVColumnParser {
    var parser = UnsafeCSVColumnParser(encodes: encodes)
    parser.state = .string
    if parser.encodes { parser.startDictionary() }
    return parser
  }

  mutating func appendNull() {
    switch state {
    case .untyped: leadingNulls += 1; return
    case .integer: integers.append(0)
    case .number: numbers.append(0)
    case .bool: bools.append(false)
    case .string: appendEmptyString()
    case .needsRescan: return
    }
    nullRows.append(Int32(truncatingIfNeeded: count))
    count += 1
  }

  @inline(__always)
  mutating func append(_ field: CSVField, _ scanner: UnsafeCSVScanner, scratch: inout [UInt8]) {
    if state == .number && !field.quoted, let value = UnsafeDecimalParser.plain(scanner.buffer, field.start, field.end)
    {
      numbers.append(value)
      count += 1
      return
    }
    switch state {
    case .needsRescan: return
    case .string: appendText(field, scanner, scratch: &scratch)
    case .integer where !field.quoted:
      if let value = Self.plainInteger(field, scanner) {
        integers.append(value)
        count += 1
        return
      }
      fallthrough
    case .integer, .number, .untyped:
      if let parsed = UnsafeDecimalParser.parse(scanner.buffer, field.start, field.end) {
        switch parsed {
        case .integer(let value):
          if state == .number { numbers.append(Double(value)) } else { become(.integer); integers.append(value) }
        case .number(let value):
          if state != .number { become(.number) }
          numbers.append(value)
        }
        count += 1
      } else if state == .untyped, let flag = Self.bool(field, scanner) {
        become(.bool)
        bools.append(flag)
        count += 1
      } else if state == .untyped {
        firstTextLength = field.end - field.start
        become(.string)
        appendText(field, scanner, scratch: &scratch)
      } else {
        state = .needsRescan
        integers = []
        numbers = []
      }
    case .bool:
      if let flag = Self.bool(field, scanner) {
        bools.append(flag)
        count += 1
      } else {
        state = .needsRescan
        bools = []
      }
    }
  }

  /// Appends field `field` of every record of `run` (on `scanner`'s buffer) as `append` and
  /// `appendNull` would, the null test first, except that while the column is integer, number
  /// or text (a dictionary's codes, or flat bytes) the common cells go through one tight loop (a
  /// plain number first where no null token is one: `numbersFirst`).
  mutating func appendColumn(
    _ run: UnsafeCSVRecordRun, field: Int, nulls: CSVNullTest, numbersFirst: Bool,
    _ scanner: UnsafeCSVScanner, scratch: inout [UInt8]
  ) {
    let buffer = scanner.buffer
    var record = 0
    let records = run.count
    let readable = run.wordReadable(in: buffer)
    while record < records {
      let first = record
      switch state {
      case .integer where numbersFirst:
        if let raw = readable {
          record = Self.appendConverted(run, field: field, from: record, into: &integers) {
            UnsafeDecimalParser.plainInteger(readable: raw, buffer, $0, $1)
          }
        } else {
          record = Self.appendConverted(run, field: field, from: record, into: &integers) {
            UnsafeDecimalParser.plainInteger(buffer, $0, $1)
          }
        }
      case .number where numbersFirst:
        if let raw = readable {
          record = Self.appendConverted(run, field: field, from: record, into: &numbers) {
            UnsafeDecimalParser.plain(readable: raw, buffer, $0, $1)
          }
        } else {
          record = Self.appendConverted(run, field: field, from: record, into: &numbers) {
            UnsafeDecimalParser.plain(buffer, $0, $1)
          }
        }
      case .string where dictionary != nil:
        record = shortCodes.appendCodes(
          run, field: field, from: record, readable: readable, nulls: nulls, scanner,
          dictionary: &dictionary!, into: &codes)
      case .string:
        // Flat text (no dictionary, or one that filled up): the cells' bytes appended as they
        // lie, a quoted cell's between its quotes (one with `""` escapes as `append` takes it).
        record = run.cells(field, from: record) { row, start, end in
          if run.isQuoted(start, end) {
            guard !run.isEscaped(row, field) else { return false }
            strings.append(utf8: UnsafeBufferPointer(rebasing: buffer[(start &+ 1)..<(end &- 1)]))
            return true
          }
          guard !nulls.isNull(CSVField(start: start, end: end, quoted: false, escaped: false), scanner) else {
            return false
          }
          strings.append(utf8: UnsafeBufferPointer(rebasing: buffer[start..<end]))
          return true
        }
      case .needsRescan:
        return
      default:
        break
      }
      count &+= record &- first
      guard record < records else { return }
      let cell = run.field(record, field)
      if nulls.isNull(cell, scanner) { appendNull() } else { append(cell, scanner, scratch: &scratch) }
      record &+= 1
    }
  }

  /// A new, empty chunk dictionary, and an empty table of its short cells' codes.
  private mutating func startDictionary() {
    dictionary = StringDictionaryBuilder(limit: CSVDictionaryEncoding.chunkEntries)
    shortCodes = UnsafeCSVShortCodes()
  }

  /// Field `field` of the records of `run` from `record` on, converted by `convert` (a cell's
  /// start and end) and appended to `values` while it answers: the record it stopped at.
  @inline(__always)
  private static func appendConverted<Value>(
    _ run: UnsafeCSVRecordRun, field: Int, from record: Int, into values: inout [Value],
    _ convert: (Int, Int) -> Value?
  ) -> Int {
    run.cells(field, from: record) { _, start, end in
      guard let value = convert(start, end) else { return false }
      values.append(value)
      return true
    }
  }

  private mutating func appendText(_ field: CSVField, _ scanner: UnsafeCSVScanner, scratch: inout [UInt8]) {
    if dictionary != nil {
      let code: UInt32?
      if field.escaped {
        scanner.unescape(field, into: &scratch)
        code = dictionary!.code(of: scratch[...])
      } else {
        code = dictionary!.code(
          of: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: scanner.buffer[field.start..<field.end])))
      }
      if let code {
        codes.append(code)
        count += 1
        return
      }
      becomeFlat()
    }
    if field.escaped {
      scanner.unescape(field, into: &scratch)
      strings.append(utf8: scratch)
    } else {
      strings.append(utf8: UnsafeBufferPointer(rebasing: scanner.buffer[field.start..<field.end]))
    }
    count += 1
  }

  /// The empty string (a null cell's placeholder) in either layout.
  private mutating func appendEmptyString() {
    if dictionary != nil {
      if let code = dictionary!.code(of: Self.emptyBytes[...]) {
        codes.append(code)
        return
      }
      becomeFlat()
    }
    strings.appendEmpty()
  }

  /// From the dictionary layout to the flat one (past `CSVDictionaryEncoding.chunkEntries`).
  private mutating func becomeFlat() {
    guard let built = dictionary else { return }
    strings = StringColumn(dictionary: built.entries, codes: codes).flattened()
    strings.reserveCapacity(
      strings: Swift.max(expectedRows, count), bytes: Swift.max(expectedStringBytes, strings.bytes.count))
    dictionary = nil
    codes = []
  }

  /// The string cells so far, in their layout.
  private var stringColumn: StringColumn {
    guard let dictionary else { return strings }
    return StringColumn(dictionary: dictionary.entries, codes: codes)
  }

  static let emptyBytes: [UInt8] = []
  static let trueBytes = Array("true".utf8)
  static let falseBytes = Array("false".utf8)

  static func bool(_ field: CSVField, _ scanner: UnsafeCSVScanner) -> Bool? {
    let length = field.end - field.start
    if length == 4 && scanner.field(field, equals: trueBytes) { return true }
    if length == 5 && scanner.field(field, equals: falseBytes) { return false }
    return nil
  }

  /// A string column's bytes if its cells are about as long as its first: at most the bytes of
  /// the records, so the buffer rarely grows (a doubling copy would raise the peak memory).
  private var expectedStringBytes: Int {
    let (product, overflow) = expectedRows.multipliedReportingOverflow(by: firstTextLength + 1)
    let estimate = overflow ? expectedTextBytes : min(product, expectedTextBytes)
    return min(expectedTextBytes, estimate + estimate / 4 + 1024)
  }

  /// Moves from untyped (or integer) to `type`, materializing the leading nulls.
  private mutating func become(_ newState: State) {
    if state == newState { return }
    defer {
      switch state {
      case .integer: integers.reserveCapacity(expectedRows)
      case .number: numbers.reserveCapacity(expectedRows)
      case .bool: bools.reserveCapacity(expectedRows)
      case .string where dictionary != nil: codes.reserveCapacity(expectedRows)
      case .string: strings.reserveCapacity(strings: expectedRows, bytes: expectedStringBytes)
      default: break
      }
    }
    if state == .integer && newState == .number {
      numbers = integers.map { Double($0) }
      integers = []
      state = .number
      return
    }
    state = newState
    if newState == .string && encodes { startDictionary() }
    for _ in 0..<leadingNulls {
      switch newState {
      case .integer: integers.append(0)
      case .number: numbers.append(0)
      case .bool: bools.append(false)
      default: appendEmptyString()
      }
      nullRows.append(Int32(truncatingIfNeeded: count))
      count += 1
    }
    leadingNulls = 0
  }

  /// An unsigned or negative run of at most 18 digits (the common integer cell), or `nil`.
  @inline(__always)
  static func plainInteger(_ field: CSVField, _ scanner: UnsafeCSVScanner) -> Int64? {
    UnsafeDecimalParser.plainInteger(scanner.buffer, field.start, field.end)
  }

  /// What this parser holds, for a chunk of a parallel read (`CSVColumnAccumulator` merges the
  /// chunks in order).
  func piece() -> CSVPiece {
    switch state {
    case .untyped: return .untyped(leadingNulls)
    case .integer: return .integer(integers, nullRows)
    case .number: return .number(numbers, nullRows)
    case .bool: return .bool(bools, nullRows)
    case .string: return .string(stringColumn, nullRows)
    case .needsRescan: return .conflict
    }
  }

  /// The column, once every row was appended (`nil` if the column needs a rescan).
  func build() -> Column? {
    let validity = Validity(count: count, nullRows: nullRows)
    switch state {
    case .untyped: return Column.nulls(.integer, count: leadingNulls)
    case .integer: return Column(.integer(integers), validity: validity)
    case .number: return Column(.number(numbers), validity: validity)
    case .bool: return Column(.bool(bools), validity: validity)
    case .string: return Column(.string(CSVDictionaryEncoding.finished(stringColumn)), validity: validity)
    case .needsRescan: return nil
    }
  }
}
