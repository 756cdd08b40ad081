import FlowRuntime
@testable import FlowNodes

/// A cell as the row-formula tests write it.
enum Cell: Hashable, CustomStringConvertible {
  case integer(Int64)
  case number(Double)
  case bool(Bool)
  case string(String)
  case null

  /// Equality with NaN equal to NaN (results are compared, not computed).
  func matches(_ other: Cell) -> Bool {
    if case .number(let a) = self, case .number(let b) = other { return a == b || (a.isNaN && b.isNaN) }
    return self == other
  }

  var description: String {
    switch self {
    case .integer(let n): "\(n)"
    case .number(let x): "\(x)"
    case .bool(let b): "\(b)"
    case .string(let s): "\"\(s)\""
    case .null: "null"
    }
  }
}

/// A named, typed column of cells for the tests.
struct CellColumn {
  var name: String
  var type: RowType
  var cells: [Cell]

  init(_ name: String, _ type: RowType, _ cells: [Cell]) {
    self.name = name
    self.type = type
    self.cells = cells
  }

  var vector: RowVector {
    let valid = cells.map { $0 != .null }
    let mask: [Bool]? = valid.allSatisfy { $0 } ? nil : valid
    switch type {
    case .integer: return .integer(cells.map { if case .integer(let n) = $0 { n } else { 0 } }, valid: mask)
    case .number: return .number(cells.map { if case .number(let x) = $0 { x } else { 0 } }, valid: mask)
    case .bool: return .bool(cells.map { if case .bool(let b) = $0 { b } else { false } }, valid: mask)
    case .string:
      return .string(StringColumn(cells.map { if case .string(let s) = $0 { s } else { "" } }), valid: mask)
    case .null, .unknown: return .null
    }
  }
}

extension RowVector {
  /// The vector's cells.
  func cells(count: Int) -> [Cell] {
    (0..<count).map { row -> Cell in
      guard isValid(row) else { return .null }
      switch self {
      case .integer(let values, _): return .integer(values[row])
      case .number(let values, _): return .number(values[row])
      case .bool(let values, _): return .bool(values[row])
      case .string(let values, _): return .string(values[row])
      case .null: return .null
      }
    }
  }
}

/// Parses, compiles against `columns` and evaluates `source`; the result's cells.
func evaluateRows(_ source: String, _ columns: [CellColumn] = [], rows: Int? = nil) throws -> [Cell] {
  let count = rows ?? columns.first?.cells.count ?? 1
  let formula = try RowFormula(parsing: source)
  let program = try formula.compile(for: RowSchema(names: columns.map(\.name), types: columns.map(\.type)))
  return try program.evaluate(columns: columns.map(\.vector), rowCount: count).cells(count: count)
}

/// The single cell of a formula over no columns.
func evaluateOne(_ source: String) throws -> Cell {
  try evaluateRows(source, rows: 1)[0]
}

/// The error of parsing (`compile == false`) or compiling `source` against `columns`.
func rowFormulaError(_ source: String, _ columns: [CellColumn] = []) -> FormulaError? {
  do {
    let formula = try RowFormula(parsing: source)
    _ = try formula.compile(for: RowSchema(names: columns.map(\.name), types: columns.map(\.type)))
    return nil
  } catch {
    return error
  }
}
