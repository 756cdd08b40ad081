import FlowGraph

/// The type of a table column's cells (besides null).
public enum ColumnType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case integer, number, bool, string

  /// The port type of one cell.
  public var portType: PortType {
    switch self {
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .string: .string
    }
  }

  /// The column type of a (non-null, scalar) value, or `nil` for lists, records, tables, null.
  public init?(of value: Value) {
    switch value {
    case .integer: self = .integer
    case .number: self = .number
    case .bool: self = .bool
    case .string: self = .string
    default: return nil
    }
  }

  public var description: String { rawValue }
}
