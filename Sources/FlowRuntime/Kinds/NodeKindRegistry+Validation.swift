import FlowGraph

extension NodeKindRegistry {
  /// Validates `document` against this registry, configuring each node once: validation sees
  /// each configuration's signature, the evaluator gets the configurations.
  ///
  /// - Throws: every validation problem of the document (SPEC §4).
  /// - Complexity: one pass configuring the nodes, then `DocumentValidator.validate`.
  func validateConfiguring(_ document: FlowDocument) throws(GraphValidationError) -> (ResolvedGraph, [ConfiguredNode]) {
    var configured: [ConfiguredNode] = []
    var resolutions: [NodeSpecResolution] = []
    configured.reserveCapacity(document.nodes.count)
    resolutions.reserveCapacity(document.nodes.count)
    for node in document.nodes {
      switch configure(node.data) {
      case .success(let configuration):
        resolutions.append(.resolved(configuration.signature))
        configured.append(configuration)
      case .failure(.unknownKind): resolutions.append(.unknownKind)
      case .failure(.invalidParameters(let problems)): resolutions.append(.invalidParameters(problems))
      }
    }
    let graph = try DocumentValidator.validate(document, resolutions: resolutions)
    // Validation fails whenever a node did not configure.
    precondition(configured.count == document.nodes.count, "Internal inconsistency: a node passed validation but does not configure")
    return (graph, configured)
  }
}
