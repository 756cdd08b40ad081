/// A JSON value as defined by RFC 8259.
///
/// Numbers are stored as `Double`: integers up to 2^53 in magnitude are
/// represented exactly. Objects keep their members in document order (see
/// ``JSONObject``).
///
/// Values produced by the parser are nested at most 512 levels deep. Avoid
/// building much deeper values by hand: destroying a value recurses through
/// its nesting levels (parsing and serializing do not).
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)
}

// MARK: - Convenience accessors

extension JSONValue {
  /// The object payload, or `nil` when this value is not an object.
  public var objectValue: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// The array payload, or `nil` when this value is not an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let array) = self { return array }
    return nil
  }

  /// The string payload, or `nil` when this value is not a string.
  public var stringValue: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  /// The number payload, or `nil` when this value is not a number.
  public var numberValue: Double? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// The boolean payload, or `nil` when this value is not a boolean.
  public var boolValue: Bool? {
    if case .bool(let bool) = self { return bool }
    return nil
  }

  /// Whether this value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The name of this value's type, for error messages:
  /// `"null"`, `"bool"`, `"number"`, `"string"`, `"array"` or `"object"`.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "bool"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) {
    self = .number(Double(value))
  }
}

extension JSONValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) {
    self = .number(value)
  }
}

extension JSONValue: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension JSONValue: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSONValue...) {
    self = .array(elements)
  }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements.map { JSONMember(key: $0.0, value: $0.1) }))
  }
}
