import FlowGraph

extension Value {
  /// Converts a JSON param to a value for a port or param of `type`.
  ///
  /// A JSON `null` becomes `.null` for an `any` port and inside lists and records; for a typed
  /// port it does not fit (a `null` param of a kind means "absent" and never reaches here).
  /// For a `table` port, an array of row objects becomes a table (see `Table(jsonRows:)`).
  ///
  /// A JSON integer stays an exact `.integer` for an `integer` or `any` port and becomes a
  /// `.number` only for a `number` port; a JSON `Double` fits an `integer` port only when it is a
  /// whole number within `Int64` (`3.0`, `1e3`).
  ///
  /// - Returns: `nil` if the JSON does not fit the type.
  public init?(json: JSONValue, as type: PortType) {
    switch (json, type) {
    case (.null, .any): self = .null
    case (.integer(let n), .integer), (.integer(let n), .any): self = .integer(n)
    case (.integer(let n), .number): self = .number(Double(n))
    case (.number(let x), .integer):
      // Exact: a fraction, a non-finite number or anything outside Int64 (2^63, 1e300) is no integer.
      guard let n = Int64(exactly: x) else { return nil }
      self = .integer(n)
    case (.number(let x), .number), (.number(let x), .any): self = .number(x)
    case (.bool(let flag), .bool), (.bool(let flag), .any): self = .bool(flag)
    case (.string(let text), .string), (.string(let text), .any): self = .string(text)
    case (.array(let items), .table):
      guard let table = Table(jsonRows: items) else { return nil }
      self = .table(table)
    case (.array(let items), .list), (.array(let items), .any):
      var list: [Value] = []
      list.reserveCapacity(items.count)
      for item in items {
        guard let value = Value(json: item, as: .any) else { return nil }
        list.append(value)
      }
      self = .list(list)
    case (.object(let object), .record), (.object(let object), .any):
      var record = Record()
      for member in object.members {
        guard let value = Value(json: member.value, as: .any) else { return nil }
        record[member.key] = value
      }
      self = .record(record)
    default:
      return nil
    }
  }

  /// The value as JSON; non-finite numbers become the strings `"nan"`, `"inf"`, `"-inf"`; a
  /// record keeps its fields' order; a table becomes an array of row objects with its columns
  /// in order.
  public var jsonValue: JSONValue {
    switch self {
    case .number(let x): return Self.json(number: x)
    case .integer(let n): return .integer(n)
    case .bool(let flag): return .bool(flag)
    case .string(let text): return .string(text)
    case .list(let items): return .array(items.map(\.jsonValue))
    case .record(let record):
      return .object(JSONObject(record.map { JSONMember(key: $0.key, value: $0.value.jsonValue) }))
    case .null: return .null
    case .table(let table): return table.jsonRows
    }
  }

  /// A number as JSON (non-finite numbers as the strings `"nan"`, `"inf"`, `"-inf"`).
  static func json(number x: Double) -> JSONValue {
    if x.isNaN { return .string("nan") }
    if x.isInfinite { return .string(x < 0 ? "-inf" : "inf") }
    return .number(x)
  }
}

extension Value: CustomStringConvertible {
  /// The value as compact JSON (`3`, `2.5`, `"text"`, `[1,2]`, `null`), as `flow run` prints it;
  /// non-finite numbers print bare as `nan`, `inf`, `-inf` (unlike the strings `"inf"`); a
  /// table prints as its text grid (see `Table.text(maxRows:)`).
  public var description: String {
    switch self {
    case .integer(let n): return String(n)
    case .number(let x) where !x.isFinite: return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf")
    case .null: return "null"
    case .table(let table): return table.text()
    default: return jsonValue.serialized(options: [])
    }
  }

  /// The value as text for people (`flow run` text output, `format` placeholders): like
  /// `description`, but a string is its characters, unquoted.
  public var text: String {
    if case .string(let text) = self { return text }
    return description
  }
}
