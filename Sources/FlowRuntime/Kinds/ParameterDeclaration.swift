import FlowGraph

/// A param a node kind reads from `data.params` (besides params named like its inputs).
public struct ParameterDeclaration: Sendable, Hashable {
  public var name: String
  public var type: PortType
  /// The value when the document leaves the param out; `nil` with `isRequired == false` means
  /// the param is optional and has no value.
  public var defaultValue: Value?
  public var isRequired: Bool
  public var summary: String
  /// For a file path param, what the node does with the file: `flow validate` checks such a
  /// path against the file-access policy a run would have and warns before the run fails.
  public var fileAccess: FileAccessPolicy.Access?

  public init(
    _ name: String, _ type: PortType, default defaultValue: Value? = nil, required isRequired: Bool = false,
    summary: String = "", fileAccess: FileAccessPolicy.Access? = nil
  ) {
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.isRequired = isRequired
    self.summary = summary
    self.fileAccess = fileAccess
  }
}
