/// The type of value a port carries.
///
/// `integer` converts implicitly to `number`; an `any` port accepts every type, and an `any`
/// output may feed any input (the value is checked when it arrives). All other pairs must match.
/// A `table` is named, ordered columns of equal length (Reference.md, "Values and types").
public enum PortType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case number, integer, bool, string, list, record, table, any

  /// Whether an output of type `source` may feed an input of this type.
  public func accepts(_ source: PortType) -> Bool {
    self == source || self == .any || source == .any || (self == .number && source == .integer)
  }

  public var description: String { rawValue }
}
