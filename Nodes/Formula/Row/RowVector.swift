import FlowRuntime

/// A column of values during row-formula evaluation: typed storage plus validity (`nil` means
/// no nulls; otherwise `false` marks a null row, whose stored value is meaningless).
///
/// Invariant: every array has the evaluation's row count; `.null` is a column of nulls only.
/// Strings stay in a table's UTF-8 layout (``StringColumn``), never one `String` per row.
enum RowVector: Sendable {
  case integer([Int64], valid: [Bool]?)
  case number([Double], valid: [Bool]?)
  case bool([Bool], valid: [Bool]?)
  case string(StringColumn, valid: [Bool]?)
  case null

  /// The static type this vector has.
  var type: RowType {
    switch self {
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .string: .string
    case .null: .null
    }
  }

  /// The validity mask, `nil` when there is no null (and for `.null`, see ``isAllNull``).
  var valid: [Bool]? {
    switch self {
    case .integer(_, let valid), .number(_, let valid), .bool(_, let valid), .string(_, let valid): valid
    case .null: nil
    }
  }

  var isAllNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Whether row `row` holds a value (not null).
  @inline(__always)
  func isValid(_ row: Int) -> Bool {
    if case .null = self { return false }
    return valid?[row] ?? true
  }

  /// The values as numbers (integers converted); only for `.integer` and `.number`.
  var numbers: [Double] {
    switch self {
    case .number(let values, _): values
    case .integer(let values, _): values.map { Double($0) }
    default: []
    }
  }

  /// Booleans and validity for the logic operators; `.null` becomes all-null bools.
  func bools(count: Int) -> (values: [Bool], valid: [Bool]?) {
    switch self {
    case .bool(let values, let valid): (values, valid)
    default: ([Bool](repeating: false, count: count), [Bool](repeating: false, count: count))
    }
  }

  /// A column holding `step`'s literal `count` times.
  static func broadcast(_ step: RowFormulaStep, count: Int) -> RowVector {
    switch step {
    case .integer(let value): .integer([Int64](repeating: value, count: count), valid: nil)
    case .number(let value): .number([Double](repeating: value, count: count), valid: nil)
    case .bool(let value): .bool([Bool](repeating: value, count: count), valid: nil)
    case .string(let value):
      .string(StringColumn(repeatElement(value, count: count)), valid: nil)
    default: .null
    }
  }

  /// The validity of a row-wise combination of two columns: valid where both are.
  static func both(_ left: [Bool]?, _ right: [Bool]?) -> [Bool]? {
    guard let left else { return right }
    guard let right else { return left }
    var result = left
    for row in result.indices where !right[row] { result[row] = false }
    return result
  }
}
