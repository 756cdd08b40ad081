/// The values on a node's input ports for one evaluation, in port order.
///
/// Read them by index (`inputs.number(0)`, the fastest) or, for an instance made with
/// `NodeInstance.namingInputs()` (a `StaticNodeKind` with `readsInputsByName`), by port name
/// (`inputs.number("celsius")`, `try inputs["celsius"]`): one hash lookup in a table built once
/// per instance, never a scan of the ports.
public struct NodeInputs: Sendable {
  @usableFromInline let values: [Value]
  /// Port name → index, when the instance asked for by-name access.
  @usableFromInline let names: InputNameTable?

  @inlinable init(_ values: [Value]) {
    self.values = values
    names = nil
  }

  init(_ values: [Value], names: InputNameTable) {
    self.values = values
    self.names = names
  }

  /// How many inputs the node has.
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

extension NodeInputs {
  /// The index of the input port named `name`.
  ///
  /// - Throws: `NodeError` if there is no such input, or if the instance was not made with
  ///   `NodeInstance.namingInputs()`.
  public func index(of name: String) throws -> Int {
    guard let names else {
      throw NodeError(
        "input '\(name)' read by name, but this node's instance does not name its inputs "
          + "(declare `readsInputsByName` or make the instance with `namingInputs()`)")
    }
    guard let index = names.indexByName[name] else {
      throw NodeError("no input named '\(name)' (inputs: \(names.names.joined(separator: ", ")))")
    }
    return index
  }

  /// The value on the input port named `name`.
  ///
  /// - Throws: `NodeError` if there is no such input (see `index(of:)`).
  public subscript(name: String) -> Value {
    get throws { values[try index(of: name)] }
  }

  /// The input named `name` as a number (an `integer` converts).
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not a number.
  public func number(_ name: String) throws -> Double {
    switch try self[name] {
    case .number(let x): return x
    case .integer(let n): return Double(n)
    case let other: throw NodeError.wrongInput(name, expected: "number", found: other)
    }
  }

  /// The input named `name` as an integer.
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not an integer.
  public func integer(_ name: String) throws -> Int64 {
    let value = try self[name]
    if case .integer(let n) = value { return n }
    throw NodeError.wrongInput(name, expected: "integer", found: value)
  }

  /// The input named `name` as a string.
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not a string.
  public func string(_ name: String) throws -> String {
    let value = try self[name]
    if case .string(let text) = value { return text }
    throw NodeError.wrongInput(name, expected: "string", found: value)
  }

  /// The input named `name` as a bool.
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not a bool.
  public func bool(_ name: String) throws -> Bool {
    let value = try self[name]
    if case .bool(let flag) = value { return flag }
    throw NodeError.wrongInput(name, expected: "bool", found: value)
  }

  /// The input named `name` as a table.
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not a table.
  public func table(_ name: String) throws -> Table {
    let value = try self[name]
    if case .table(let table) = value { return table }
    throw NodeError.wrongInput(name, expected: "table", found: value)
  }

  /// The input named `name` as a list.
  ///
  /// - Throws: `NodeError` naming the input if it is missing or not a list.
  public func list(_ name: String) throws -> [Value] {
    let value = try self[name]
    if case .list(let items) = value { return items }
    throw NodeError.wrongInput(name, expected: "list", found: value)
  }
}

/// The names of an instance's input ports with their indices, built once per instance (once per
/// kind for a `StaticNodeKind`, whose instance the registry shares). Immutable.
@usableFromInline final class InputNameTable: Sendable {
  let names: [String]
  let indexByName: [String: Int]

  init(_ names: [String]) {
    self.names = names
    var indexByName: [String: Int] = [:]
    for (index, name) in names.enumerated() where indexByName[name] == nil { indexByName[name] = index }
    self.indexByName = indexByName
  }
}

/// Hands an evaluator its inputs with their names attached (see `NodeInstance.namingInputs()`).
struct NamingInputsEvaluator: NodeEvaluator {
  let base: any NodeEvaluator
  let names: InputNameTable

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    try base.evaluate(NodeInputs(inputs.values, names: names), &outputs)
  }
}

extension NodeInstance {
  /// This instance with its evaluator reading inputs by name (`inputs.number("celsius")`).
  ///
  /// The name table is built here, once; each evaluation then costs one extra call. Instances
  /// that read by index need not do this.
  public func namingInputs() -> NodeInstance {
    if evaluator is NamingInputsEvaluator { return self }
    var instance = self
    instance.evaluator = NamingInputsEvaluator(base: evaluator, names: InputNameTable(inputs.map(\.name)))
    return instance
  }
}

extension NodeError {
  static func wrongInput(_ name: String, expected: String, found: Value) -> NodeError {
    NodeError("input '\(name)' is \(found.type), expected \(expected)")
  }

  /// `input #N is <type>, expected <type>`: the engine, which knows the node's ports, names
  /// the port in place of `#N` when it records the failure (`describingInputs(_:of:)`).
  @usableFromInline static func wrongInput(_ index: Int, expected: String, found: Value) -> NodeError {
    NodeError("\(wrongInputPrefix)\(index + 1) is \(found.typeName), expected \(expected)")
  }

  /// How `wrongInput(_:expected:found:)`'s message starts, before the port's number.
  @usableFromInline static let wrongInputPrefix = "input #"
}
