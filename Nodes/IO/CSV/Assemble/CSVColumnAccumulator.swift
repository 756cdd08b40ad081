import FlowRuntime

/// One column of one chunk of a parallel CSV read: its cells as the chunk's parser typed them.
/// Null rows are relative to the chunk.
enum CSVPiece {
  /// Only nulls (the count).
  case untyped(Int)
  case integer([Int64], [Int32])
  case number([Double], [Int32])
  case bool([Bool], [Int32])
  case string(StringColumn, [Int32])
  /// Cells of two types no column holds together (bool and numbers): text, read again.
  case conflict
}

/// A column built from the pieces of consecutive chunks, in file order, typed as the serial
/// reader types it: a column's type is the first non-null cell's, integer widens to number,
/// and any other mix is text (then `needsText`: the column is read again as strings, as the
/// serial reader rescans it). So the column is the same whatever the chunks were.
///
/// Invariant: `count` rows were appended; while `state` is typed, its array holds `count`
/// cells (placeholders at `nullRows`); while untyped, `count == pendingNulls`.
struct CSVColumnAccumulator {
  enum State { case untyped, integer, number, bool, string, needsText }
  private(set) var state = State.untyped
  private(set) var count = 0
  private var integers: [Int64] = []
  private var numbers: [Double] = []
  private var bools: [Bool] = []
  private var strings = StringColumn()
  /// While every string piece so far was a dictionary column: their merged dictionary (chunk
  /// order: codes follow the file's first appearances) and the rows' codes; then `strings` is
  /// unused. `nil` once flat (`CSVDictionaryEncoding`).
  private var dictionary: StringDictionaryBuilder?
  private var codes: [UInt32] = []
  private var nullRows: [Int32] = []
  /// Rows expected in all (reserved once the type is known: no doubling copies).
  var expectedRows = 0
  /// Whether an integer or number column reserves `expectedRows` (not when it will continue
  /// in place after this block, `UnsafeCSVDirectColumn`: its cells so far are copied there,
  /// and a full reservation would only raise the peak memory).
  var reservesNumbers = true

  /// The rows an integer or number column reserves.
  private var numericReservation: Int { reservesNumbers ? Swift.max(expectedRows, count) : count }

  /// Appends a chunk's `rows` rows.
  mutating func append(_ piece: CSVPiece, rows: Int) {
    switch (state, piece) {
    case (.needsText, _):
      count += rows
      return
    case (_, .conflict):
      becomeText(adding: rows)
      return
    case (_, .untyped(let nulls)):
      appendNulls(nulls)
      return
    case (.untyped, .integer): become(.integer)
    case (.untyped, .number): become(.number)
    case (.untyped, .bool): become(.bool)
    case (.untyped, .string(let column, _)):
      if column.isDictionaryEncoded {
        dictionary = StringDictionaryBuilder(limit: StringColumn.maximumDictionaryEntries)
        codes.reserveCapacity(expectedRows)
        become(.string)
      } else {
        become(.string)
        reserveFlat(estimatingFrom: column)
      }
    case (.integer, .number):
      numbers.reserveCapacity(numericReservation)
      UnsafeHugePages.advise(&numbers)
      numbers.append(contentsOf: integers.lazy.map { Double($0) })
      integers = []
      state = .number
    case (.integer, .integer), (.number, .number), (.number, .integer), (.bool, .bool), (.string, .string): break
    default:
      becomeText(adding: rows)
      return
    }
    let base = count
    switch piece {
    case .integer(let values, let nulls):
      if state == .integer {
        integers.append(contentsOf: values)
      } else {
        numbers.append(contentsOf: values.lazy.map { Double($0) })
      }
      appendNullRows(nulls, base)
    case .number(let values, let nulls):
      numbers.append(contentsOf: values)
      appendNullRows(nulls, base)
    case .bool(let values, let nulls):
      bools.append(contentsOf: values)
      appendNullRows(nulls, base)
    case .string(let column, let nulls):
      appendStrings(column)
      appendNullRows(nulls, base)
    case .untyped, .conflict:
      break
    }
    count += rows
  }

  private mutating func appendNullRows(_ rows: [Int32], _ base: Int) {
    if rows.isEmpty { return }
    let offset = Int32(truncatingIfNeeded: base)
    nullRows.append(contentsOf: rows.lazy.map { $0 &+ offset })
  }

  private mutating func appendNulls(_ nulls: Int) {
    guard nulls > 0 else { return }
    if state != .untyped {
      for row in count..<(count + nulls) { nullRows.append(Int32(truncatingIfNeeded: row)) }
    }
    switch state {
    case .integer: integers.append(contentsOf: repeatElement(0, count: nulls))
    case .number: numbers.append(contentsOf: repeatElement(0, count: nulls))
    case .bool: bools.append(contentsOf: repeatElement(false, count: nulls))
    case .string: for _ in 0..<nulls { appendEmptyString() }
    case .untyped, .needsText: break
    }
    count += nulls
  }

  /// Reserves the flat layout's room, estimating the bytes from `column`'s.
  private mutating func reserveFlat(estimatingFrom column: StringColumn) {
    let flatBytes = column.utf8Count
    let estimate = column.count > 0 ? flatBytes / column.count * Swift.max(expectedRows, count) : 0
    strings.reserveCapacity(strings: Swift.max(expectedRows, count), bytes: estimate + estimate / 8 + 1024)
  }

  /// Appends a chunk's strings: merged into the dictionary while it lasts, else flat.
  private mutating func appendStrings(_ column: StringColumn) {
    if dictionary != nil, let entries = column.dictionary, let columnCodes = column.codes {
      var renumbered = [UInt32](repeating: 0, count: entries.count)
      var merged = true
      for entry in 0..<entries.count {
        guard let code = dictionary!.code(of: entries.utf8(entry)) else { merged = false; break }
        renumbered[entry] = code
      }
      if merged {
        // A constant table (a captured `var` would cost an exclusivity check per cell), mapped
        // eagerly: `Array.map` inlines the lookup, where a lazy map called it per cell.
        let map = renumbered
        codes.append(contentsOf: columnCodes.map { map[Int($0)] })
        return
      }
    }
    becomeFlat(estimatingFrom: column)
    strings.append(contentsOf: column)
  }

  /// The empty string (a null's placeholder) in either layout.
  private mutating func appendEmptyString() {
    if dictionary != nil {
      if let code = dictionary!.code(of: Self.emptyBytes[...]) {
        codes.append(code)
        return
      }
      becomeFlat(estimatingFrom: StringColumn())
    }
    strings.appendEmpty()
  }

  private static let emptyBytes: [UInt8] = []

  /// From the dictionary layout to the flat one (the codes so far materialized).
  private mutating func becomeFlat(estimatingFrom column: StringColumn) {
    guard let built = dictionary else { return }
    strings = StringColumn(dictionary: built.entries, codes: codes).flattened()
    dictionary = nil
    codes = []
    reserveFlat(estimatingFrom: column.count > 0 ? column : strings)
  }

  /// From untyped to `newState`: the nulls so far become placeholders.
  private mutating func become(_ newState: State) {
    let nulls = count
    count = 0
    state = newState
    switch newState {
    case .integer: integers.reserveCapacity(numericReservation); UnsafeHugePages.advise(&integers)
    case .number: numbers.reserveCapacity(numericReservation); UnsafeHugePages.advise(&numbers)
    case .bool: bools.reserveCapacity(expectedRows)
    default: break
    }
    appendNulls(nulls)
  }

  private mutating func becomeText(adding rows: Int) {
    state = .needsText
    integers = []
    numbers = []
    bools = []
    strings = StringColumn()
    dictionary = nil
    codes = []
    nullRows = []
    count += rows
  }

  /// A numeric column's cells so far, to continue in place (`UnsafeCSVDirectColumn`).
  struct NumericCells {
    enum Values { case integers([Int64]), numbers([Double]) }
    var values: Values
    var nullRows: [Int32]
    var count: Int
  }

  /// The cells so far if the column is typed integer or number, else `nil`.
  var numericCells: NumericCells? {
    switch state {
    case .integer: return NumericCells(values: .integers(integers), nullRows: nullRows, count: count)
    case .number: return NumericCells(values: .numbers(numbers), nullRows: nullRows, count: count)
    default: return nil
    }
  }

  /// The cells so far if the column is flat text (not dictionary-encoded), else `nil`: to
  /// continue in place (`UnsafeCSVStringColumn`).
  var flatStrings: (strings: StringColumn, nullRows: [Int32])? {
    state == .string && dictionary == nil ? (strings, nullRows) : nil
  }

  /// The column (`nil` if it must be read again as text).
  func build() -> Column? {
    let validity = Validity(count: count, nullRows: nullRows)
    switch state {
    case .untyped: return Column.nulls(.integer, count: count)
    case .integer: return Column(.integer(integers), validity: validity)
    case .number: return Column(.number(numbers), validity: validity)
    case .bool: return Column(.bool(bools), validity: validity)
    case .string:
      guard let dictionary else { return Column(.string(strings), validity: validity) }
      return Column(
        .string(CSVDictionaryEncoding.finished(StringColumn(dictionary: dictionary.entries, codes: codes))),
        validity: validity)
    case .needsText: return nil
    }
  }
}
