import FlowGraph

/// A node's declared params, type-checked and with defaults filled in, plus what the kind may
/// need from its host (`environment`).
public struct NodeParameters: Sendable {
  private let values: [String: Value]
  private let raw: JSONObject
  /// Where the node runs: the document's folder and the file-access policy (set by the host
  /// on the registry, `NodeKindRegistry.environment`).
  public let environment: EvaluationEnvironment

  init(_ values: [String: Value], raw: JSONObject = JSONObject(), environment: EvaluationEnvironment = EvaluationEnvironment()) {
    self.values = values
    self.raw = raw
    self.environment = environment
  }

  /// The value of param `name`, or `nil` if it is optional and absent.
  public subscript(name: String) -> Value? { values[name] }

  /// Param `name` as a number.
  public func number(_ name: String) -> Double? { values[name]?.numberValue }

  /// Param `name` as a string.
  public func string(_ name: String) -> String? {
    if case .string(let text)? = values[name] { return text }
    return nil
  }

  /// Param `name` as an integer.
  public func integer(_ name: String) -> Int64? { values[name]?.integerValue }

  /// Param `name` as a bool.
  public func bool(_ name: String) -> Bool? {
    if case .bool(let flag)? = values[name] { return flag }
    return nil
  }

  /// Param `name` as a list.
  public func list(_ name: String) -> [Value]? {
    if case .list(let items)? = values[name] { return items }
    return nil
  }

  /// The JSON the document wrote for param `name` (before type conversion), or `nil` if the
  /// document left it out. Use it where the written order matters: a `record` param's `Value`
  /// is a dictionary, while `json(name)?.objectValue` keeps the members in document order
  /// (`derive.columns`, `groupBy.aggregate`).
  public func json(_ name: String) -> JSONValue? { raw[name] }
}
