import FlowGraph

extension NodeKindRegistry {
  /// Validates `document` against this registry, configuring each node once: validation sees
  /// each configuration's signature, the evaluator gets the configurations.
  ///
  /// Nodes of a static kind without params all share the kind's one configuration: it is
  /// looked up once per kind (in a short list of the kinds met so far), not once per node.
  ///
  /// - Throws: every validation problem of the document (Reference.md, "Validation").
  /// - Complexity: one pass configuring the nodes, then `DocumentValidator.validate`.
  func validateConfiguring(_ document: FlowDocument) throws(GraphValidationError) -> (ResolvedGraph, [ConfiguredNode]) {
    var configured: [ConfiguredNode] = []
    var resolutions: [NodeSpecResolution] = []
    configured.reserveCapacity(document.nodes.count)
    resolutions.reserveCapacity(document.nodes.count)
    // The shared configurations met so far, with their resolution (a handful of kinds).
    var shared: [(kind: String, node: ConfiguredNode, resolution: NodeSpecResolution)] = []
    var inlined: [(spec: NodeSpec, node: ConfiguredNode, resolution: NodeSpecResolution)] = []
    let nodes = document.nodes
    nodes: for index in nodes.indices {
      let parameterless = nodes[index].data.params.isEmpty
      if parameterless {
        let kind = nodes[index].data.kind
        // By index: iterating the tuples would copy (retain and release) each one.
        for position in shared.indices where shared[position].kind == kind {
          resolutions.append(shared[position].resolution)
          configured.append(shared[position].node)
          continue nodes
        }
      }
      // The nodes a subgraph expansion makes repeat the same few specs (one per boundary node
      // of a definition): each distinct spec configures once (their kinds are pure and stateless).
      let isInlined = nodes[index].data.kind.hasPrefix(SubgraphExpander.reservedPrefix)
      if isInlined {
        for position in inlined.indices where inlined[position].spec == nodes[index].data {
          resolutions.append(inlined[position].resolution)
          configured.append(inlined[position].node)
          continue nodes
        }
      }
      switch configure(nodes[index].data) {
      case .success(let configuration) where isInlined:
        let resolution = NodeSpecResolution.resolved(configuration.signature)
        resolutions.append(resolution)
        configured.append(configuration)
        if inlined.count == 16 { inlined.removeFirst() }
        inlined.append((nodes[index].data, configuration, resolution))
      case .success(let configuration):
        let resolution = NodeSpecResolution.resolved(configuration.signature)
        resolutions.append(resolution)
        configured.append(configuration)
        if parameterless, shared.count < 32, let key = configuration.sharedKey, key == nodes[index].data.kind {
          shared.append((key, configuration, resolution))
        }
      case .failure(.unknownKind): resolutions.append(.unknownKind)
      case .failure(.invalidParameters(let problems)): resolutions.append(.invalidParameters(problems))
      }
    }
    let graph = try DocumentValidator.validate(document, resolutions: resolutions)
    // Validation fails whenever a node did not configure.
    precondition(
      configured.count == document.nodes.count,
      "Internal inconsistency: a node passed validation but does not configure")
    return (graph, conforming(configured, to: graph))
  }
}
