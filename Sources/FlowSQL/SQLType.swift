import FlowNodes
import FlowRuntime

/// The type of a column or expression in the exported SQL: flow's column types, and `null`
/// for a value known to be null (or a column whose type is unknown because it is all null).
enum SQLType: Sendable, Hashable {
  case integer, number, bool, string, null

  init(_ type: ColumnType?) {
    switch type {
    case .integer: self = .integer
    case .number: self = .number
    case .bool: self = .bool
    case .string: self = .string
    case nil: self = .null
    }
  }

  /// The type of a checked formula's node (`unknown` only arises without a schema, which the
  /// translator never uses: it reads as null).
  init(_ type: RowType) {
    switch type {
    case .integer: self = .integer
    case .number: self = .number
    case .bool: self = .bool
    case .string: self = .string
    case .null, .unknown: self = .null
    }
  }

  /// The row formulas' type of a value of this type.
  var rowType: RowType {
    switch self {
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .string: .string
    case .null: .null
    }
  }

  var columnType: ColumnType? {
    switch self {
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .string: .string
    case .null: nil
    }
  }

  var isNumeric: Bool { self == .integer || self == .number }

  /// The common type of two values (`if`, `coalesce`, `union`), or nil when they do not mix.
  static func unify(_ a: SQLType, _ b: SQLType) -> SQLType? {
    if a == b { return a }
    if a == .null { return b }
    if b == .null { return a }
    if a.isNumeric && b.isNumeric { return .number }
    return nil
  }
}
