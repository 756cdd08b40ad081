/// A node's declared params, type-checked and with defaults filled in.
public struct NodeParameters: Sendable {
  private let values: [String: Value]

  init(_ values: [String: Value]) { self.values = values }

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
}
