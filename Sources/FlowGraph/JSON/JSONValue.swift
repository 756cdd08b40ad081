/// A JSON value as defined by RFC 8259.
///
/// Integers are exact (Reference.md, "Documents"): a number written without fraction or
/// exponent that fits in `Int64` is an ``integer(_:)`` and is written back
/// digit for digit; every other number is a ``number(_:)`` (`Double`). `-0`
/// is the `Double` `-0.0`, so its sign survives a round trip.
///
/// Equality is numeric across the two number cases: `.integer(3) ==
/// .number(3.0)`, while `.integer(9007199254740993)` equals no `Double`
/// (hashing agrees). Use ``isIdentical(to:)`` to tell the cases apart.
/// Objects keep their members in document order (see ``JSONObject``).
///
/// Values produced by the parser are nested at most 512 levels deep. Avoid
/// building much deeper values by hand: destroying a value recurses through
/// its nesting levels (parsing and serializing do not).
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number that is not an exact 64-bit integer: it has a fraction or an exponent, or lies
  /// outside `Int64`.
  case number(Double)
  /// A number written without fraction or exponent that fits in `Int64`, held exactly.
  case integer(Int64)
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

  /// The number as a `Double` (an integer beyond 2^53 rounds to the nearest `Double`), or
  /// `nil` when this value is not a number.
  public var numberValue: Double? {
    switch self {
    case .number(let number): return number
    case .integer(let integer): return Double(integer)
    default: return nil
    }
  }

  /// The number as an exact `Int64`: an integer, or a `Double` that is a whole number within
  /// `Int64` range; `nil` otherwise.
  public var integerValue: Int64? {
    switch self {
    case .integer(let integer): return integer
    case .number(let number): return Int64(exactly: number)
    default: return nil
    }
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
    case .number, .integer: return "number"
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
  /// An exact ``integer(_:)``: `let count: JSONValue = 3` is `.integer(3)`.
  public init(integerLiteral value: Int) {
    self = .integer(Int64(value))
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
