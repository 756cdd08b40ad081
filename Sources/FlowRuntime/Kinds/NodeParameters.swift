import FlowGraph

/// A node's declared params, type-checked and with defaults filled in, plus what the kind may
/// need from its host (`environment`).
public struct NodeParameters: Sendable {
  private let values: [String: Value]
  private let raw: JSONObject
  /// Where the node runs: the document's folder and the file-access policy (set by the host
  /// on the registry, `NodeKindRegistry.environment`).
  public let environment: EvaluationEnvironment

  init(
    _ values: [String: Value], raw: JSONObject = JSONObject(),
    environment: EvaluationEnvironment = EvaluationEnvironment()
  ) {
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

extension NodeParameters {
  /// These params with every string of params `names` rewritten by `rewrite`: a string param,
  /// the strings of a list param, and the string members of a record param (in the values and
  /// in the JSON as written, whose member order is kept). What `@name` in row formulas uses to
  /// write an input's value into the formulas before the kind configures them.
  package func rewritingStrings(in names: [String], _ rewrite: (String) -> String) -> NodeParameters {
    var values = self.values
    var raw = self.raw
    for name in names {
      if let value = values[name] { values[name] = Self.rewriting(value, rewrite) }
      if let json = raw[name] { raw[name] = Self.rewriting(json, rewrite) }
    }
    return NodeParameters(values, raw: raw, environment: environment)
  }

  /// The strings of params `names` (as `rewritingStrings(in:_:)` visits them), in document order.
  package func strings(in names: [String]) -> [String] {
    var found: [String] = []
    for name in names {
      switch raw[name] ?? values[name]?.jsonValue {
      case .string(let text)?: found.append(text)
      case .array(let items)?: found += items.compactMap(\.stringValue)
      case .object(let object)?: found += object.members.compactMap(\.value.stringValue)
      default: break
      }
    }
    return found
  }

  private static func rewriting(_ value: Value, _ rewrite: (String) -> String) -> Value {
    switch value {
    case .string(let text): .string(rewrite(text))
    case .list(let items): .list(items.map { if case .string(let text) = $0 { .string(rewrite(text)) } else { $0 } })
    case .record(let record):
      .record(record.mapValues { if case .string(let text) = $0 { .string(rewrite(text)) } else { $0 } })
    default: value
    }
  }

  private static func rewriting(_ json: JSONValue, _ rewrite: (String) -> String) -> JSONValue {
    switch json {
    case .string(let text): .string(rewrite(text))
    case .array(let items): .array(items.map { if case .string(let text) = $0 { .string(rewrite(text)) } else { $0 } })
    case .object(let object):
      .object(
        JSONObject(
          object.members.map { member in
            guard case .string(let text) = member.value else { return member }
            return JSONMember(key: member.key, value: .string(rewrite(text)))
          }))
    default: json
    }
  }
}
