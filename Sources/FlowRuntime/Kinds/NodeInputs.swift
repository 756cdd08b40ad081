/// The values on a node's input ports for one evaluation, in port order.
public struct NodeInputs: Sendable {
  @usableFromInline let values: [Value]

  @inlinable init(_ values: [Value]) { self.values = values }

  public var count: Int { values.count }

  /// The value on input `index`.
  @inlinable public subscript(index: Int) -> Value { values[index] }

  /// Input `index` as a number (an `integer` converts).
  ///
  /// - Throws: `NodeError` if the value is not a number.
  @inlinable public func number(_ index: Int) throws -> Double {
    switch values[index] {
    case .number(let x): return x
    case .integer(let n): return Double(n)
    case let other: throw NodeError.wrongInput(index, expected: "number", found: other)
    }
  }

  /// Input `index` as an integer.
  ///
  /// - Throws: `NodeError` if the value is not an integer.
  @inlinable public func integer(_ index: Int) throws -> Int64 {
    if case .integer(let n) = values[index] { return n }
    throw NodeError.wrongInput(index, expected: "integer", found: values[index])
  }

  /// Input `index` as a string.
  public func string(_ index: Int) throws -> String {
    if case .string(let text) = values[index] { return text }
    throw NodeError.wrongInput(index, expected: "string", found: values[index])
  }

  /// Input `index` as a bool.
  public func bool(_ index: Int) throws -> Bool {
    if case .bool(let flag) = values[index] { return flag }
    throw NodeError.wrongInput(index, expected: "bool", found: values[index])
  }

  /// Input `index` as a table.
  ///
  /// - Throws: `NodeError` if the value is not a table.
  public func table(_ index: Int) throws -> Table {
    if case .table(let table) = values[index] { return table }
    throw NodeError.wrongInput(index, expected: "table", found: values[index])
  }

  /// Input `index` as a list.
  ///
  /// - Throws: `NodeError` if the value is not a list.
  public func list(_ index: Int) throws -> [Value] {
    if case .list(let items) = values[index] { return items }
    throw NodeError.wrongInput(index, expected: "list", found: values[index])
  }
}

extension NodeError {
  @usableFromInline static func wrongInput(_ index: Int, expected: String, found: Value) -> NodeError {
    NodeError("input #\(index + 1) is \(found.typeName), expected \(expected)")
  }
}
