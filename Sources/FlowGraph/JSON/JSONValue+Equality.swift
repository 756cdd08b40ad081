extension JSONValue {
  /// Numeric equality across the number cases: an integer equals a `Double` of exactly its
  /// value (`.integer(3) == .number(3.0)`, `.integer(0) == .number(-0.0)`), never a rounded
  /// one (`.integer(9007199254740993) != .number(9007199254740992)`). Everything else is
  /// structural; a NaN equals nothing, as for `Double`.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Int64(exactly: b) == a
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }

  /// Hashes equal values alike: a `Double` that is a whole number within `Int64` hashes as that
  /// integer.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null:
      hasher.combine(0 as UInt8)
    case .bool(let bool):
      hasher.combine(1 as UInt8)
      hasher.combine(bool)
    case .integer(let integer):
      hasher.combine(2 as UInt8)
      hasher.combine(integer)
    case .number(let number):
      if let integer = Int64(exactly: number) {
        hasher.combine(2 as UInt8)
        hasher.combine(integer)
      } else {
        hasher.combine(3 as UInt8)
        hasher.combine(number)
      }
    case .string(let string):
      hasher.combine(4 as UInt8)
      hasher.combine(string)
    case .array(let array):
      hasher.combine(5 as UInt8)
      hasher.combine(array)
    case .object(let object):
      hasher.combine(6 as UInt8)
      hasher.combine(object)
    }
  }

  /// Structural identity: like `==`, except that an integer and a `Double` are never
  /// identical, and `0.0` and `-0.0` are not, nor two `Double`s of different bits (a NaN is
  /// identical to a NaN of the same bits). Use it to check that a value survived a round trip
  /// exactly.
  public func isIdentical(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.integer(let a), .integer(let b)): return a == b
    case (.number(let a), .number(let b)): return a.bitPattern == b.bitPattern
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    case (.object(let a), .object(let b)):
      return a.members.count == b.members.count
        && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value.isIdentical(to: $1.value) }
    case (.integer, _), (.number, _), (_, .integer), (_, .number), (.array, _), (.object, _): return false
    default: return self == other
    }
  }
}
