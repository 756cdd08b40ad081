/// A `record` value: named fields in the order they were made.
///
/// The order is meaning — a record fed to `derive`'s `columns` or `groupBy`'s `aggregate` is
/// applied in it — so it survives every path a value takes: JSON in and out, a param fed by an
/// edge, a subgraph input, the run cache. Two records are equal when they hold the same fields
/// in the same order.
///
/// ```swift
/// var columns: Record = ["z": .string("x * 10"), "a": .string("z + 1")]
/// columns["b"] = .string("a * 2")          // appended after "a"
/// columns.keys                              // ["z", "a", "b"]
/// ```
///
/// Setting a field that exists replaces its value in place; setting `nil` removes it (O(*n*)).
/// Lookup is O(1).
public struct Record: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
  /// The field names, in order.
  public private(set) var keys: [String] = []
  /// The field values, in the order of `keys`.
  public private(set) var values: [Value] = []
  /// Each key's position in `keys`.
  private var positions: [String: Int] = [:]

  /// An empty record.
  public init() {}

  /// The fields in the literal's order; a repeated name keeps its first place and last value.
  public init(dictionaryLiteral elements: (String, Value)...) {
    self.init(elements)
  }

  /// The fields in the sequence's order; a repeated name keeps its first place and last value.
  public init(_ fields: some Sequence<(String, Value)>) {
    for (key, value) in fields { self[key] = value }
  }

  /// A dictionary's fields, sorted by name (a dictionary has no order to keep).
  public init(_ dictionary: [String: Value]) {
    self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  /// The value of field `key`; setting it replaces the value in place or appends the field,
  /// and setting `nil` removes it.
  public subscript(key: String) -> Value? {
    get { positions[key].map { values[$0] } }
    set {
      if let position = positions[key] {
        if let newValue {
          values[position] = newValue
        } else {
          keys.remove(at: position)
          values.remove(at: position)
          positions[key] = nil
          for index in position..<keys.count { positions[keys[index]] = index }
        }
      } else if let newValue {
        positions[key] = keys.count
        keys.append(key)
        values.append(newValue)
      }
    }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { keys.count }

  /// The field at `position`, in order.
  public subscript(position: Int) -> (key: String, value: Value) { (keys[position], values[position]) }

  /// The same fields in the same order, each value transformed.
  public func mapValues(_ transform: (Value) throws -> Value) rethrows -> Record {
    var copy = self
    copy.values = try values.map(transform)
    return copy
  }

  public static func == (left: Record, right: Record) -> Bool {
    left.keys == right.keys && left.values == right.values
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(keys)
    hasher.combine(values)
  }
}
