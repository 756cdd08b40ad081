/// Builds a `Column` of one type by appending cells.
///
/// ```swift
/// var builder = ColumnBuilder(.number, capacity: rows)
/// builder.append(number: 2.5)
/// builder.appendNull()
/// let column = builder.build()
/// ```
public struct ColumnBuilder: Sendable {
  /// The type of the column being built.
  public let type: ColumnType
  var integers: [Int64] = []
  var numbers: [Double] = []
  var bools: [Bool] = []
  var strings = StringColumn()
  var validity = Validity()

  /// A builder for a column of `type`, with room for `capacity` cells.
  public init(_ type: ColumnType, capacity: Int = 0) {
    self.type = type
    switch type {
    case .integer: integers.reserveCapacity(capacity)
    case .number: numbers.reserveCapacity(capacity)
    case .bool: bools.reserveCapacity(capacity)
    case .string: strings.reserveCapacity(strings: capacity, bytes: capacity * 8)
    }
  }

  /// The number of cells appended.
  public var count: Int { validity.count }

  /// Appends an integer cell (converted in a `number` column).
  ///
  /// - Precondition: the column is `integer` or `number`.
  public mutating func append(integer value: Int64) {
    switch type {
    case .integer: integers.append(value)
    case .number: numbers.append(Double(value))
    default: preconditionFailure("Internal inconsistency: an integer appended to a \(type) column")
    }
    validity.append(true)
  }

  /// Appends a number cell. - Precondition: the column is `number`.
  public mutating func append(number value: Double) {
    precondition(type == .number, "Internal inconsistency: a number appended to a \(type) column")
    numbers.append(value)
    validity.append(true)
  }

  /// Appends a bool cell. - Precondition: the column is `bool`.
  public mutating func append(bool value: Bool) {
    precondition(type == .bool, "Internal inconsistency: a bool appended to a \(type) column")
    bools.append(value)
    validity.append(true)
  }

  /// Appends a string cell. - Precondition: the column is `string`.
  public mutating func append(string value: String) {
    precondition(type == .string, "Internal inconsistency: a string appended to a \(type) column")
    strings.append(value)
    validity.append(true)
  }

  /// Appends a string cell given as valid UTF-8 bytes. - Precondition: the column is `string`.
  public mutating func append(utf8 bytes: some Collection<UInt8>) {
    precondition(type == .string, "Internal inconsistency: a string appended to a \(type) column")
    strings.append(utf8: bytes)
    validity.append(true)
  }

  /// Appends a null cell.
  public mutating func appendNull() {
    switch type {
    case .integer: integers.append(0)
    case .number: numbers.append(0)
    case .bool: bools.append(false)
    case .string: strings.appendEmpty()
    }
    validity.append(false)
  }

  /// Appends a value: null, or a scalar of the column's type (an integer into a `number`
  /// column converts).
  ///
  /// - Throws: `TableError` if the value does not fit the column.
  public mutating func append(_ value: Value) throws(TableError) {
    switch (value, type) {
    case (.null, _): appendNull()
    case (.integer(let n), .integer), (.integer(let n), .number): append(integer: n)
    case (.number(let x), .number): append(number: x)
    case (.bool(let flag), .bool): append(bool: flag)
    case (.string(let text), .string): append(string: text)
    default: throw TableError("a \(value.typeName) value does not fit a \(type) column")
    }
  }

  /// Appends cell `row` of `column` (same type, or an integer cell into a `number` column).
  public mutating func append(from column: Column, row: Int) {
    guard column.validity.isValid(row) else { return appendNull() }
    switch column.storage {
    case .integer(let values): append(integer: values[row])
    case .number(let values): append(number: values[row])
    case .bool(let values): append(bool: values[row])
    case .string(let values): append(utf8: values.utf8(row))
    }
  }

  /// The column built so far.
  public func build() -> Column {
    switch type {
    case .integer: Column(.integer(integers), validity: validity)
    case .number: Column(.number(numbers), validity: validity)
    case .bool: Column(.bool(bools), validity: validity)
    case .string: Column(.string(strings), validity: validity)
    }
  }
}
