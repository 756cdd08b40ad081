/// A coding key for arbitrary object member names.
private struct JSONMemberKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init?(intValue: Int) {
    return nil
  }
}

extension JSONValue: Codable {
  /// Decodes from a single-value container, trying null, bool, integer (`Int64`), number
  /// (`Double`), string, array and object in that order.
  ///
  /// Whether a number decodes as an integer is up to the decoder: Foundation's `JSONDecoder`
  /// gives an integer for `3` and may also for `3.0`. Equality does not tell them apart.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else if let object = try? container.decode(JSONObject.self) {
      self = .object(object)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a JSON null, bool, number, string, array or object")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .number(let number): try container.encode(number)
    case .integer(let integer): try container.encode(integer)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }
}

extension JSONObject: Codable {
  /// Decodes a keyed container. Decoders do not report document order, so
  /// the members are sorted by key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONMemberKey.self)
    let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
    var members: [JSONMember] = []
    members.reserveCapacity(keys.count)
    for key in keys {
      members.append(JSONMember(key: key.stringValue, value: try container.decode(JSONValue.self, forKey: key)))
    }
    self.init(members)
  }

  /// Encodes a keyed container; for duplicate keys only the last member
  /// (the one lookups return) is encoded.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONMemberKey.self)
    var lastIndex: [String: Int] = [:]
    for (index, member) in members.enumerated() {
      lastIndex[member.key] = index
    }
    for (index, member) in members.enumerated() where lastIndex[member.key] == index {
      try container.encode(member.value, forKey: JSONMemberKey(stringValue: member.key))
    }
  }
}
