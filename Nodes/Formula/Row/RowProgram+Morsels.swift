import FlowRuntime

// Morsel evaluation: a large table's rows are cut into morsels of `RowProgram.morselRows`,
// the program runs over each morsel's slice of the columns it reads (on up to
// `workers` threads, the run's: `TableParallelism.map` hands results back in order), and
// the pieces are joined in morsel order. Every row's result depends on that row only, so the
// joined result is the whole-table result whatever the worker count; the temporaries of one
// morsel stay in cache instead of a fresh array of the whole table per instruction. A morsel
// that fails (overflow, a date with no answer) sends the whole evaluation to the serial path,
// which reports the error the serial evaluation reports (its first instruction's first row).

extension RowProgram {
  /// The rows of one morsel (a multiple of 64, so validity words never straddle morsels).
  static let morselRows = 1 << 16

  /// The schema positions of the columns the program reads, in first-use order.
  var readColumns: [Int] {
    var seen = Set<Int>(), read: [Int] = []
    for case .column(let index) in instructions where seen.insert(index).inserted { read.append(index) }
    return read
  }

  /// The morsel ranges of `rowCount` rows, or `nil` when the table is one morsel, or at most
  /// two on one worker (a streamed row group's stages, or a run on one thread: copying the
  /// columns' slices costs more than the cache they save; the values are the same either
  /// way).
  static func morsels(_ rowCount: Int, workers: Int) -> [Range<Int>]? {
    guard rowCount > (workers > 1 ? morselRows : 2 * morselRows) else { return nil }
    return stride(from: 0, to: rowCount, by: morselRows).map { $0..<Swift.min(rowCount, $0 + morselRows) }
  }

  /// The program's results over each morsel of `columns`, in order, or `nil` if a morsel fails.
  private func evaluateMorsels(
    _ morsels: [Range<Int>], over columns: [Column], memory: RunLimits? = nil,
    workers: Int
  ) -> [RowVector]? {
    let read = readColumns
    let cells = (morsels.last?.upperBound ?? 0) * Swift.max(1, read.count)
    let results = TableParallelism.map(morsels.count, cells: cells, workers: workers) { part in
      let range = morsels[part]
      var vectors: [Int: RowVector] = [:]
      for index in read { vectors[index] = RowVector(columns[index], rows: range) }
      return try? evaluate(rowCount: range.count, memory: memory) { vectors[$0] ?? .null }
    }
    var vectors: [RowVector] = []
    vectors.reserveCapacity(results.count)
    for result in results {
      guard let result else { return nil }
      vectors.append(result)
    }
    return vectors
  }

  /// The program's result over `columns` (in the order of the schema it was compiled for) of
  /// `rowCount` rows, as a column of its result type: the same column as
  /// `evaluate(over:rowCount:).column(as: resultType, count: rowCount)`, computed by morsels.
  ///
  /// - Parameters:
  ///   - memory: as in `evaluate(rowCount:memory:column:)`.
  ///   - workers: the most threads the morsels run on (the run's `EvaluationEnvironment.workers`).
  /// - Throws: the ``FormulaError`` the serial evaluation throws.
  /// - Complexity: O(instructions × rows), on up to `workers` threads.
  func column(over columns: [Column], rowCount: Int, memory: RunLimits? = nil, workers: Int) throws(FormulaError)
    -> Column
  {
    if let morsels = Self.morsels(rowCount, workers: workers),
      let parts = evaluateMorsels(morsels, over: columns, memory: memory, workers: workers),
      let joined = RowVector.joined(parts, counts: morsels.map(\.count), as: resultType)
    {
      return joined
    }
    return try evaluate(over: columns, rowCount: rowCount, memory: memory).column(as: resultType, count: rowCount)
  }

  /// The rows (increasing) where the program (a `bool` formula) is true — not false, not null:
  /// `filter`'s rows, computed by morsels on up to `workers` threads.
  ///
  /// - Throws: the ``FormulaError`` the serial evaluation throws.
  func trueRows(over columns: [Column], rowCount: Int, workers: Int) throws(FormulaError) -> [Int32] {
    if let rows = comparedRows(over: columns, rowCount: rowCount) { return rows }
    if let morsels = Self.morsels(rowCount, workers: workers),
      let parts = evaluateMorsels(morsels, over: columns, workers: workers)
    {
      var rows: [Int32] = []
      rows.reserveCapacity(rowCount)
      for (part, range) in zip(parts, morsels) {
        part.appendTrueRows(to: &rows, offset: range.lowerBound, count: range.count)
      }
      return rows
    }
    var rows: [Int32] = []
    try evaluate(over: columns, rowCount: rowCount).appendTrueRows(to: &rows, offset: 0, count: rowCount)
    return rows
  }
}

extension RowProgram {
  /// The rows of a program that compares a column without nulls with a literal (`x <= 3`,
  /// `l_shipdate <= "1998-09-02"`), tested straight from the column into the selection: no
  /// column of flags. A dictionary column is compared once per entry. `nil` for any other
  /// program (or column), which `trueRows` evaluates.
  func comparedRows(over columns: [Column], rowCount: Int) -> [Int32]? {
    guard instructions.count == 2, case .column(let index) = instructions[0],
      case .compareWithLiteral(let op, let literal) = instructions[1], columns.indices.contains(index)
    else { return nil }
    let column = columns[index]
    guard column.nullCount == 0, column.count == rowCount else { return nil }
    switch (column.storage, literal) {
    case (.string(let strings), .string(let text)):
      guard let entries = strings.dictionary, let codes = strings.codes else { return nil }
      return UnsafeSelection.rows(codes: codes, holds: RowVector.entryHolds(op, entries, text))
    case (.integer(let values), .integer(let n)):
      return UnsafeSelection.rows(count: rowCount) { op.holds(values[$0], n) }
    case (.integer(let values), .number(let x)):
      return UnsafeSelection.rows(count: rowCount) { op.holds(Double(values[$0]), x) }
    case (.number(let values), .integer(let n)):
      let x = Double(n)
      return UnsafeSelection.rows(count: rowCount) { op.holds(values[$0], x) }
    case (.number(let values), .number(let x)):
      return UnsafeSelection.rows(count: rowCount) { op.holds(values[$0], x) }
    default:
      return nil
    }
  }
}

extension RowVector {
  /// Rows `range` of a table column as a vector (the values copied; validity as flags).
  init(_ column: Column, rows range: Range<Int>) {
    let validity = column.validity
    let valid: [Bool]? = validity.nullCount == 0 ? nil : range.map { validity.isValid($0) }
    switch column.storage {
    case .integer(let values): self = .integer(Array(values[range]), valid: valid)
    case .number(let values): self = .number(Array(values[range]), valid: valid)
    case .bool(let values): self = .bool(Array(values[range]), valid: valid)
    case .string(let strings): self = .string(strings.slice(range), valid: valid)
    }
  }

  /// Appends `offset + row` for each row of this `bool` vector that is true (and valid).
  func appendTrueRows(to rows: inout [Int32], offset: Int, count: Int) {
    guard case .bool(let keep, let valid) = self else { return }
    let kept = UnsafeSelection.trueRows(keep, valid: valid, offset: offset, count: count)
    if rows.capacity == 0 { rows = kept } else { rows += kept }
  }

  /// The morsel results `parts` (of `counts` rows) joined into one column of `type`, as
  /// `column(as:count:)` makes it of the whole; `nil` if the parts differ in kind (then the
  /// caller evaluates the whole table at once).
  static func joined(_ parts: [RowVector], counts: [Int], as type: RowType) -> Column? {
    guard let first = parts.first else { return nil }
    let total = counts.reduce(0, +)
    var nullRows: [Int32] = []
    func collectNulls(_ valid: [Bool]?, _ base: Int) {
      guard let valid else { return }
      for row in valid.indices where !valid[row] { nullRows.append(Int32(truncatingIfNeeded: base &+ row)) }
    }
    func validity() -> Validity? { nullRows.isEmpty ? nil : Validity(count: total, nullRows: nullRows) }
    var base = 0
    switch first {
    case .null:
      guard parts.allSatisfy(\.isAllNull) else { return nil }
      return Column.nulls(type.columnType, count: total)
    case .integer where type == .number, .number:
      var values: [Double] = []
      values.reserveCapacity(total)
      for part in parts {
        switch part {
        case .number(let piece, let valid) where type == .number || first.type == .number:
          values.append(contentsOf: piece); collectNulls(valid, base); base += piece.count
        case .integer(let piece, let valid) where type == .number:
          values.append(contentsOf: piece.lazy.map { Double($0) }); collectNulls(valid, base); base += piece.count
        default: return nil
        }
      }
      return Column(.number(values), validity: validity())
    case .integer:
      var values: [Int64] = []
      values.reserveCapacity(total)
      for part in parts {
        guard case .integer(let piece, let valid) = part else { return nil }
        values.append(contentsOf: piece); collectNulls(valid, base); base += piece.count
      }
      return Column(.integer(values), validity: validity())
    case .bool:
      var values: [Bool] = []
      values.reserveCapacity(total)
      for part in parts {
        guard case .bool(let piece, let valid) = part else { return nil }
        values.append(contentsOf: piece); collectNulls(valid, base); base += piece.count
      }
      return Column(.bool(values), validity: validity())
    case .string:
      var pieces: [StringColumn] = []
      pieces.reserveCapacity(parts.count)
      for part in parts {
        guard case .string(let piece, let valid) = part else { return nil }
        pieces.append(piece); collectNulls(valid, base); base += piece.count
      }
      // Dictionary pieces (a column passed through) stay one dictionary column.
      return Column(.string(StringColumn.concatenating(pieces)), validity: validity())
    }
  }
}

extension StringColumn {
  /// Strings `range`, as a column of their own (one copy of their bytes).
  fileprivate func slice(_ range: Range<Int>) -> StringColumn {
    if let dictionary, let codes { return StringColumn(dictionary: dictionary, codes: Array(codes[range])) }
    let offsets = self.offsets
    let start = offsets[range.lowerBound], end = offsets[range.upperBound]
    return StringColumn(
      validUTF8: Array(bytes[start..<end]), offsets: offsets[range.lowerBound...range.upperBound].map { $0 &- start })
  }
}
