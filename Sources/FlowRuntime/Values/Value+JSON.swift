import FlowGraph

extension Value {
  /// Converts a JSON param to a value for a port or param of `type`.
  ///
  /// - Returns: `nil` if the JSON does not fit the type (a `null` never fits).
  public init?(json: JSONValue, as type: PortType) {
    switch (json, type) {
    case (.number(let x), .integer):
      // Exact: a fraction, a non-finite number or anything outside Int64 (2^63, 1e300) is no integer.
      guard let n = Int64(exactly: x) else { return nil }
      self = .integer(n)
    case (.number(let x), .number), (.number(let x), .any): self = .number(x)
    case (.bool(let flag), .bool), (.bool(let flag), .any): self = .bool(flag)
    case (.string(let text), .string), (.string(let text), .any): self = .string(text)
    case (.array(let items), .list), (.array(let items), .any):
      var list: [Value] = []
      list.reserveCapacity(items.count)
      for item in items {
        guard let value = Value(json: item, as: .any) else { return nil }
        list.append(value)
      }
      self = .list(list)
    case (.object(let object), .record), (.object(let object), .any):
      var record: [String: Value] = [:]
      for member in object.members {
        guard let value = Value(json: member.value, as: .any) else { return nil }
        record[member.key] = value
      }
      self = .record(record)
    default:
      return nil
    }
  }

  /// The value as JSON; non-finite numbers become the strings `"nan"`, `"inf"`, `"-inf"`.
  public var jsonValue: JSONValue {
    switch self {
    case .number(let x):
      if x.isNaN { return .string("nan") }
      if x.isInfinite { return .string(x < 0 ? "-inf" : "inf") }
      return .number(x)
    case .integer(let n): return .number(Double(n))
    case .bool(let flag): return .bool(flag)
    case .string(let text): return .string(text)
    case .list(let items): return .array(items.map(\.jsonValue))
    case .record(let record):
      return .object(JSONObject(record.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value.jsonValue) }))
    }
  }
}

extension Value: CustomStringConvertible {
  /// The value as compact JSON (`3`, `2.5`, `"text"`, `[1,2]`), as `flow run` prints it;
  /// non-finite numbers print bare as `nan`, `inf`, `-inf` (unlike the strings `"inf"`).
  public var description: String {
    if case .integer(let n) = self { return String(n) }
    if case .number(let x) = self, !x.isFinite { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
    return jsonValue.serialized(options: [.sortedKeys])
  }
}
