/// The static type of a row-formula value. `unknown` stands for a column whose type is not known
/// yet (the load-time check, before any table arrives).
package enum RowType: Sendable, Hashable, CustomStringConvertible {
  case integer, number, bool, string, null, unknown

  package var isNumeric: Bool { self == .integer || self == .number }
  /// Whether a value of this type may be used where `wanted` is needed (null and unknown fit).
  func fits(_ wanted: (RowType) -> Bool) -> Bool { self == .null || self == .unknown || wanted(self) }

  package var description: String {
    switch self {
    case .integer: "integer"
    case .number: "number"
    case .bool: "bool"
    case .string: "string"
    case .null: "null"
    case .unknown: "unknown"
    }
  }
}
