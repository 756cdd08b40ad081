import FlowRuntime

/// The row-formula functions that make or read text: `replace`, `concat`, `string`, `number`.
extension RowVector {
  /// `replace(s, from, to)`: every occurrence of `from`, left to right, without overlaps; an
  /// empty `from` leaves `s` as it is.
  ///
  /// - Parameter memory: if given, the memory limit is checked before the result's first bytes
  ///   and once per `RunLimits.memoryBlockBytes` built (the output's size is known only as it
  ///   is built), so the kernel passes the limit by at most one block.
  static func replaced(
    _ strings: StringColumn, _ from: StringColumn, _ to: StringColumn, memory: RunLimits? = nil,
    fail: (String) -> FormulaError = { FormulaError(message: $0) }
  ) throws(FormulaError) -> StringColumn {
    let (bytes, offsets) = strings.flatLayout
    let (fromBytes, fromOffsets) = from.flatLayout
    var result = StringColumn()
    try check(memory, adding: bytes.count, fail)
    result.reserveCapacity(strings: strings.count, bytes: bytes.count)
    var buffer: [UInt8] = []
    // The input's size was checked up front; past it, one check per block built.
    var nextCheck = bytes.count + RunLimits.memoryBlockBytes
    for row in 0..<strings.count {
      let begin = offsets[row], end = offsets[row + 1]
      let pattern = fromOffsets[row], length = fromOffsets[row + 1] - pattern
      guard length > 0, length <= end - begin else {
        result.append(utf8: bytes[begin..<end])
        continue
      }
      buffer.removeAll(keepingCapacity: true)
      var index = begin
      while index < end {
        if index + length <= end, bytes[index] == fromBytes[pattern],
          (0..<length).allSatisfy({ bytes[index + $0] == fromBytes[pattern + $0] })
        {
          buffer.append(contentsOf: to.utf8(row))
          index += length
          if result.utf8Count + buffer.count >= nextCheck {
            try check(memory, adding: RunLimits.memoryBlockBytes, fail)
            nextCheck += RunLimits.memoryBlockBytes
          }
        } else {
          buffer.append(bytes[index])
          index += 1
        }
      }
      result.append(utf8: buffer)
    }
    return result
  }

  /// `RunLimits.checkMemory(adding:for:)` of `memory` (nothing if `nil`), its error as `fail`'s.
  private static func check(_ memory: RunLimits?, adding bytes: Int, _ fail: (String) -> FormulaError)
    throws(FormulaError)
  {
    guard let memory else { return }
    do { try memory.checkMemory(adding: bytes, for: "the strings it builds") } catch { throw fail(error.message) }
  }

  /// `string(x)`: the text `flow run` prints for each value (whole numbers without `.0`,
  /// shortest round-trip digits otherwise, `true`/`false`); a string stays as it is.
  func texts(count: Int) -> RowVector {
    switch self {
    case .string: return self
    case .null: return .null
    case .integer(let values, let valid):
      return .string(StringColumn(values.lazy.map { String($0) }), valid: valid)
    case .number(let values, let valid):
      return .string(StringColumn(values.lazy.map { Value.number($0).text }), valid: valid)
    case .bool(let values, let valid):
      return .string(StringColumn(values.lazy.map { $0 ? "true" : "false" }), valid: valid)
    }
  }

  /// `concat(a, b, …)`: the texts (``texts(count:)``) joined; null where any is null.
  ///
  /// - Parameter memory: if given, the memory limit is checked before the result is allocated
  ///   (its size is the operands' bytes together), so nothing past the limit is built.
  static func concatenated(
    _ operands: [RowVector], count: Int, memory: RunLimits? = nil,
    fail: (String) -> FormulaError = { FormulaError(message: $0) }
  ) throws(FormulaError) -> RowVector {
    if operands.contains(where: \.isAllNull) { return .null }
    var valid: [Bool]? = nil
    var columns: [StringColumn] = []
    for operand in operands {
      valid = both(valid, operand.valid)
      guard case .string(let column, _) = operand.texts(count: count) else { return .null }
      columns.append(column)
    }
    var result = StringColumn()
    let total = columns.reduce(0) { $0 + $1.utf8Count }
    try check(memory, adding: total, fail)
    result.reserveCapacity(strings: count, bytes: total)
    var buffer: [UInt8] = []
    for row in 0..<count {
      buffer.removeAll(keepingCapacity: true)
      for column in columns { buffer.append(contentsOf: column.utf8(row)) }
      result.append(utf8: buffer)
    }
    return .string(result, valid: valid)
  }

  /// `number(s)`: each valid row's text read as `toNumber` reads it.
  ///
  /// - Throws: `fail`'s error naming the first row (from 1) whose text is not a number.
  static func numbers(
    _ strings: StringColumn, valid: [Bool]?, fail: (String) -> FormulaError
  ) throws(FormulaError) -> [Double] {
    var result = [Double](repeating: 0, count: strings.count)
    for row in result.indices where valid?[row] ?? true {
      let text = strings[row]
      switch UnsafeDecimalParser.parse(text) {
      case .integer(let value)?:
        result[row] = value == 0 && text.utf8.contains(UInt8(ascii: "-")) ? -0.0 : Double(value)
      case .number(let value)? where value.isFinite:
        result[row] = value
      default:
        throw fail("'number' at row \(row + 1): not a number: \"\(ToNumberNode.shown(text))\"")
      }
    }
    return result
  }

  /// `coalesce(a, b, …)`: row by row, the first operand that is not null.
  static func coalesced(_ operands: [RowVector], count: Int) -> RowVector {
    guard var result = operands.last else { return .null }
    for operand in operands.dropLast().reversed() {
      result = choose(operand.nullTest(count: count).negatedLogically(), operand, result, count: count)
    }
    return result
  }

  /// `x in (a, b, …)`: `x == a or x == b or …`, with SQL's three-valued `or` (null when `x` is
  /// null, or when nothing matches and an item is null).
  static func membership(_ operands: [RowVector], count: Int) -> RowVector {
    let value = operands[0]
    if value.isAllNull { return .null }
    var result = RowVector.bool([Bool](repeating: false, count: count), valid: nil)
    for item in operands.dropFirst() {
      result = logic(isAnd: false, result, compare(.equal, value, item, count: count), count: count)
    }
    return result
  }

  /// `x in (a, b, …)` whose items are non-null literals: the same result as `membership` with
  /// the literals broadcast, each compared by `compare(_:_:literal:count:)` (once per entry of
  /// a dictionary column) instead of row by row against a column of copies.
  static func membership(_ value: RowVector, literals: [RowFormulaStep], count: Int) -> RowVector {
    if value.isAllNull { return .null }
    var result = RowVector.bool([Bool](repeating: false, count: count), valid: nil)
    for literal in literals {
      result = logic(isAnd: false, result, compare(.equal, value, literal: literal, count: count), count: count)
    }
    return result
  }
}
