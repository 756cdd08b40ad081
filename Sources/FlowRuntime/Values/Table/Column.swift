/// One column of a `Table`: typed storage plus a validity bitmap (Arrow's layout).
///
/// A null cell holds a placeholder in the storage (0, 0.0, false or the empty string) and a 0
/// bit in `validity`. Equality compares cells (nulls equal nulls; numbers by bit pattern, so a
/// NaN equals itself); copies share the arrays (copy-on-write).
public struct Column: Sendable, Hashable {
  /// The typed cells.
  public enum Storage: Sendable, Hashable {
    case integer([Int64])
    case number([Double])
    case bool([Bool])
    case string(StringColumn)
  }

  /// The cells, with placeholders where `validity` says null.
  public let storage: Storage
  /// Which cells are null.
  public let validity: Validity

  /// A column of `storage` with `validity` (all valid if omitted).
  ///
  /// - Precondition: `validity.count` equals the number of cells.
  public init(_ storage: Storage, validity: Validity? = nil) {
    self.storage = storage
    let count: Int
    switch storage {
    case .integer(let values): count = values.count
    case .number(let values): count = values.count
    case .bool(let values): count = values.count
    case .string(let strings): count = strings.count
    }
    let validity = validity ?? Validity(allValid: count)
    precondition(
      validity.count == count, "Internal inconsistency: validity of \(validity.count) rows for \(count) cells")
    self.validity = validity
  }

  /// The number of cells.
  @inlinable public var count: Int { validity.count }

  /// The number of null cells.
  @inlinable public var nullCount: Int { validity.nullCount }

  /// The type of the cells.
  public var type: ColumnType {
    switch storage {
    case .integer: .integer
    case .number: .number
    case .bool: .bool
    case .string: .string
    }
  }

  /// Whether cell `row` is null.
  @inlinable public func isNull(_ row: Int) -> Bool { validity.isNull(row) }

  /// Cell `row` as a value (`.null` for a null cell).
  public subscript(row: Int) -> Value {
    guard validity.isValid(row) else { return .null }
    switch storage {
    case .integer(let values): return .integer(values[row])
    case .number(let values): return .number(values[row])
    case .bool(let values): return .bool(values[row])
    case .string(let strings): return .string(strings[row])
    }
  }

  /// Cell `row` as a `Double` (an integer converts), or `nil` if it is null or not numeric.
  public func number(at row: Int) -> Double? {
    guard validity.isValid(row) else { return nil }
    switch storage {
    case .integer(let values): return Double(values[row])
    case .number(let values): return values[row]
    default: return nil
    }
  }

  /// The cells as values, in order.
  public var values: [Value] { (0..<count).map { self[$0] } }

  /// Whether the column holds numbers (`integer` or `number`).
  public var isNumeric: Bool { type == .integer || type == .number }
}

extension Column {
  /// Cell equality: same type, same nulls, same values (numbers by bit pattern). Equal storage
  /// (what an unchanged column, or a recomputed one with the same placeholders, has) answers
  /// at once, nulls or not; only a difference with nulls is looked at row by row.
  public static func == (a: Column, b: Column) -> Bool {
    guard a.validity == b.validity else { return false }
    let hasNulls = a.validity.nullCount > 0
    switch (a.storage, b.storage) {
    case (.integer(let x), .integer(let y)):
      return x == y || hasNulls && (0..<x.count).allSatisfy { a.isNull($0) || x[$0] == y[$0] }
    case (.number(let x), .number(let y)):
      return (0..<x.count).allSatisfy { a.isNull($0) || x[$0].bitPattern == y[$0].bitPattern }
    case (.bool(let x), .bool(let y)):
      return x == y || hasNulls && (0..<x.count).allSatisfy { a.isNull($0) || x[$0] == y[$0] }
    case (.string(let x), .string(let y)):
      if x == y { return true }
      if !hasNulls { return false }
      return (0..<x.count).allSatisfy { a.isNull($0) || x.utf8($0).elementsEqual(y.utf8($0)) }
    default:
      return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(count)
  }
}
