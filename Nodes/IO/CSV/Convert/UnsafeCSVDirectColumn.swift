import FlowRuntime

/// A numeric column of a parallel CSV read written in place: once the first block typed a
/// column integer or number, every later chunk converts its cells straight into this column's
/// storage at the chunk's first row (`UnsafeCSVDirectParser`), instead of into a piece that
/// `CSVColumnAccumulator` then copies. Each block's records are counted first (line feeds) so
/// each chunk knows its first row; a chunk that held fewer records than line feeds (blank
/// lines, line breaks inside quotes) has its rows moved down after the block.
///
/// Invariants: the live array (`integers` while `kind` is integer, `numbers` while number)
/// has `count == capacity`, its first `rows` cells written; cells at `rows...` are storage
/// not yet written (a trivial type: never read before a chunk writes them), cut off by
/// `build()`. Slot pointers (`withSlots`) are used only inside that call, by chunks writing
/// disjoint row ranges below the capacity `reserve` made; `commit` runs after every chunk of
/// the block returned. `nullRows` is increasing, below `rows`.
final class UnsafeCSVDirectColumn {
  enum Kind { case integer, number, needsText }
  private(set) var kind: Kind
  private var integers: [Int64] = []
  private var numbers: [Double] = []
  private var nullRows: [Int32]
  private(set) var rows: Int

  /// The most columns of a table converted in place (`withSlots` nests one call per column;
  /// the columns after them are merged from pieces, as before).
  static let mostColumns = 128

  /// A column continuing `cells` (the accumulator's so far), with room for `expectedRows`.
  init(_ cells: CSVColumnAccumulator.NumericCells, expectedRows: Int) {
    rows = cells.count
    nullRows = cells.nullRows
    let capacity = Swift.max(expectedRows, rows + 1024)
    switch cells.values {
    case .integers(let values):
      kind = .integer
      integers = Self.storage(capacity) { $0.initialize(from: values, count: values.count) }
    case .numbers(let values):
      kind = .number
      numbers = Self.storage(capacity) { $0.initialize(from: values, count: values.count) }
    }
  }

  var isNumber: Bool { kind == .number }
  private var capacity: Int { kind == .integer ? integers.count : numbers.count }

  /// An array of `capacity` cells, the first ones set by `fill` (the rest not yet written),
  /// advised to use huge pages if large (`UnsafeHugePages`: padding a column of a few MB so
  /// that all of it lay on huge pages saved ~2,500 of 17,500 faults on flights but no CPU time,
  /// and cost 10 MB).
  private static func storage<Value>(_ capacity: Int, _ fill: (UnsafeMutablePointer<Value>) -> Void) -> [Value] {
    var array = [Value](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      fill(buffer.baseAddress!)
      initialized = capacity
    }
    UnsafeHugePages.advise(&array)
    return array
  }

  /// Makes room for `more` rows after `rows` (a copy only if the first block's estimate of
  /// the rows was short).
  func reserve(_ more: Int) {
    let needed = rows + more
    guard kind != .needsText, needed > capacity else { return }
    let larger = Swift.max(needed, capacity * 2)
    let rows = self.rows
    switch kind {
    case .integer:
      integers = Self.storage(larger) { target in
        integers.withUnsafeBufferPointer { target.initialize(from: $0.baseAddress!, count: rows) }
      }
    case .number:
      numbers = Self.storage(larger) { target in
        numbers.withUnsafeBufferPointer { target.initialize(from: $0.baseAddress!, count: rows) }
      }
    case .needsText: break
    }
  }

  /// `body` with the address of row `rows` (the block's first) of each column in `columns`
  /// (`nil` for a column that needs text), valid only inside the call.
  static func withSlots<Result>(
    _ columns: ArraySlice<UnsafeCSVDirectColumn>, _ slots: [UnsafeMutableRawPointer?] = [],
    _ body: ([UnsafeMutableRawPointer?]) throws -> Result
  ) rethrows -> Result {
    guard let column = columns.first else { return try body(slots) }
    let rest = columns.dropFirst()
    let offset = column.rows * 8
    switch column.kind {
    case .integer:
      return try column.integers.withUnsafeMutableBufferPointer { buffer in
        try withSlots(rest, slots + [UnsafeMutableRawPointer(buffer.baseAddress!) + offset], body)
      }
    case .number:
      return try column.numbers.withUnsafeMutableBufferPointer { buffer in
        try withSlots(rest, slots + [UnsafeMutableRawPointer(buffer.baseAddress!) + offset], body)
      }
    case .needsText:
      return try withSlots(rest, slots + [nil], body)
    }
  }

  /// Takes in one block's chunks: `counted[k]` rows were reserved for chunk `k` (from the
  /// block's first row on, in order), `actual[k]` it wrote, with what `results[k]` says.
  func commit(counted: [Int], actual: [Int], results: [UnsafeCSVDirectParser]) {
    guard kind != .needsText else { return }
    if results.contains(where: { $0.state == .conflict }) {
      kind = .needsText
      integers = []
      numbers = []
      nullRows = []
      return
    }
    let widens = kind == .integer && results.contains { $0.state == .number }
    let rows = self.rows
    var source = rows, target = rows
    withRaw { cells in
      for k in counted.indices {
        if source != target { (cells + target * 8).copyMemory(from: cells + source * 8, byteCount: actual[k] * 8) }
        if widens && results[k].state == .integer { UnsafeCSVDirectParser.widen(cells, target..<(target + actual[k])) }
        source += counted[k]
        target += actual[k]
      }
      if widens { UnsafeCSVDirectParser.widen(cells, 0..<rows) }
    }
    if widens {
      // The cells are `Double`s now (in the integer array's bytes): into a number array.
      let written = target
      let old = integers
      integers = []
      numbers = Self.storage(old.count) { cells in
        old.withUnsafeBufferPointer {
          UnsafeMutableRawPointer(cells).copyMemory(from: $0.baseAddress!, byteCount: written * 8)
        }
      }
      kind = .number
    }
    var first = rows
    for k in counted.indices {
      let offset = Int32(truncatingIfNeeded: first)
      nullRows.append(contentsOf: results[k].nullRows.lazy.map { $0 &+ offset })
      first += actual[k]
    }
    self.rows = first
  }

  /// `body` with the live storage's bytes.
  private func withRaw(_ body: (UnsafeMutableRawPointer) -> Void) {
    switch kind {
    case .integer: integers.withUnsafeMutableBufferPointer { body(UnsafeMutableRawPointer($0.baseAddress!)) }
    case .number: numbers.withUnsafeMutableBufferPointer { body(UnsafeMutableRawPointer($0.baseAddress!)) }
    case .needsText: break
    }
  }

  /// The column (its storage cut to `rows`), or `nil` if it must be read again as text.
  func build() -> Column? {
    let validity = Validity(count: rows, nullRows: nullRows)
    switch kind {
    case .integer:
      integers.removeLast(integers.count - rows)
      return Column(.integer(integers), validity: validity)
    case .number:
      numbers.removeLast(numbers.count - rows)
      return Column(.number(numbers), validity: validity)
    case .needsText:
      return nil
    }
  }
}
