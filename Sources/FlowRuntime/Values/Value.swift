import FlowGraph

/// A value on a port.
///
/// `number` is a `Double`; `integer` an `Int64` (it converts to `number` where a number is
/// expected); `list` and `record` nest; `null` is a missing value (a CSV cell, a JSON `null`)
/// and may arrive on any port (the receiving kind decides what it means); `table` is columnar
/// (see `Table`). Equality is structural; the engine's cutoff uses `isIdentical(to:)`, which
/// also treats a NaN as equal to itself and compares tables by storage identity first.
public enum Value: Sendable, Hashable {
  case number(Double)
  case integer(Int64)
  case bool(Bool)
  case string(String)
  case list([Value])
  /// Named fields in order (`Record`): the order is meaning.
  case record(Record)
  /// A missing value. Its `type` is `any`: it fits every port.
  case null
  /// Named, ordered, typed columns of equal length.
  case table(Table)

  /// The port type this value has (`any` for `null`).
  public var type: PortType {
    switch self {
    case .number: .number
    case .integer: .integer
    case .bool: .bool
    case .string: .string
    case .list: .list
    case .record: .record
    case .null: .any
    case .table: .table
    }
  }

  /// The name of the value's type for messages (`null` for a null).
  public var typeName: String {
    if case .null = self { return "null" }
    return type.rawValue
  }

  /// Whether this is `null`.
  @inlinable public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value as a `Double`, for `number` and `integer`.
  @inlinable public var numberValue: Double? {
    switch self {
    case .number(let x): x
    case .integer(let n): Double(n)
    default: nil
    }
  }

  /// The value as an `Int64`, for `integer` and for a `number` that is a whole number in range.
  public var integerValue: Int64? {
    switch self {
    case .integer(let n): return n
    case .number(let x): return Int64(exactly: x)
    default: return nil
    }
  }

  /// The table, for a `table` value.
  public var tableValue: Table? {
    if case .table(let table) = self { return table }
    return nil
  }

  /// Whether the value may flow into a port of `type` (`integer` counts as a `number`).
  public func conforms(to type: PortType) -> Bool { type.accepts(self.type) }

  /// Equality for early cutoff: like `==`, except that a NaN equals a NaN, so a NaN output that
  /// stays NaN does not re-run its descendants; `0` and `-0` are equal (as for `==`), so an
  /// output going from `0` to `-0` is no change and keeps the value it had. Strings compare by
  /// their Unicode scalars (SPEC: no locale, no normalization). Tables compare by
  /// storage identity first (O(1) when a node passed its input table through unchanged).
  @inlinable public func isIdentical(to other: Value) -> Bool {
    switch (self, other) {
    case (.number(let a), .number(let b)): a == b || (a.isNaN && b.isNaN)
    case (.integer(let a), .integer(let b)): a == b
    // By scalars, not Swift's canonical equivalence: "é" and "e" + U+0301 are different text.
    case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
    case (.table(let a), .table(let b)): a.isIdentical(to: b)
    default: self == other
    }
  }
}
