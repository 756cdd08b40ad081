/// One `"key": value` pair of a ``JSONObject``.
public struct JSONMember: Sendable, Hashable {
  public var key: String
  public var value: JSONValue

  public init(key: String, value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON object that keeps its members in document order.
///
/// Duplicate keys are kept as they appear in the document; key lookups
/// return the value of the *last* member with that key (the usual JSON
/// convention). Lookups are linear searches: objects in the documents this
/// type is used for are small.
///
/// - Complexity: a keyed lookup or set is O(*n*). Never insert member by member
///   into a large object (O(*n*²) over *n* keys): build its `members` array and
///   use ``init(_:)``, and look up many keys through a dictionary built once
///   (as the document decoder and `flow run --format json` do; `flow-bench W11`
///   checks them).
///
/// Equality and hashing are order-sensitive: two objects are equal when they
/// have the same members in the same order.
public struct JSONObject: Sendable, Hashable {
  /// The members in document order, duplicates included.
  public var members: [JSONMember]

  /// Creates an empty object.
  public init() {
    members = []
  }

  /// Creates an object with the given members, in order.
  public init(_ members: [JSONMember]) {
    self.members = members
  }

  /// The value of the last member named `key`.
  ///
  /// Setting a value replaces the last member named `key` in place (and
  /// removes any earlier duplicates), or appends a new member when there is
  /// none. Setting `nil` removes every member named `key`.
  public subscript(key: String) -> JSONValue? {
    get {
      guard let index = lastIndex(ofKey: key) else { return nil }
      return members[index].value
    }
    set {
      guard let newValue else {
        members.removeAll { $0.key == key }
        return
      }
      guard let index = lastIndex(ofKey: key) else {
        members.append(JSONMember(key: key, value: newValue))
        return
      }
      members[index].value = newValue
      if members[..<index].contains(where: { $0.key == key }) {
        // Drop earlier duplicates so the object holds `key` once.
        var kept: [JSONMember] = []
        kept.reserveCapacity(members.count)
        for (position, member) in members.enumerated()
        where position == index || member.key != key {
          kept.append(member)
        }
        members = kept
      }
    }
  }

  /// The member keys in document order (duplicates included).
  public var keys: [String] {
    members.map(\.key)
  }

  private func lastIndex(ofKey key: String) -> Int? {
    var index = members.count
    while index > 0 {
      index -= 1
      if members[index].key == key { return index }
    }
    return nil
  }
}

extension JSONObject: RandomAccessCollection {
  public typealias Element = JSONMember
  public typealias Index = Int
  public typealias Indices = Range<Int>

  public var startIndex: Int { members.startIndex }
  public var endIndex: Int { members.endIndex }

  public subscript(position: Int) -> JSONMember {
    members[position]
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements.map { JSONMember(key: $0.0, value: $0.1) })
  }
}
