import FlowRuntime

extension NodeParameters {
  /// A reader's `columns` param: the names it lists, or nil when it is not set.
  ///
  /// - Throws: `NodeConfigurationError` naming `columns` when an entry is not a string.
  func columnNames() throws(NodeConfigurationError) -> Set<String>? {
    guard let names = list("columns") else { return nil }
    var wanted = Set<String>()
    for name in names {
      guard case .string(let text) = name else {
        throw NodeConfigurationError(parameter: "columns", reason: "must be a list of column names, found \(name)")
      }
      wanted.insert(text)
    }
    return wanted
  }
}
