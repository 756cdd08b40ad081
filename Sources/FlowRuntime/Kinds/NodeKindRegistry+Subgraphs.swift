import FlowGraph

extension NodeKindRegistry {
  /// Registers the subgraph definitions of `document` as kinds (Reference.md, "Subgraphs"): every store and
  /// engine made with this registry can use them as node kinds, as if each document imported
  /// them.
  ///
  /// - Parameter origin: where the definitions come from, for messages (a file's path).
  /// - Throws: the definitions' problems (each naming the definition and the inner id), or a
  ///   name clash with a kind or a definition registered before (naming both places).
  public mutating func register(subgraphsFrom document: FlowDocument, origin: String) throws(GraphValidationError) {
    let source = SubgraphSource(origin: origin, definitions: document.subgraphs)
    var probe = self
    probe.registeredSubgraphs = []
    _ = try SubgraphLibrary(registeredSubgraphs + [source], catalog: probe)
    registeredSubgraphs.append(source)
  }

  /// `register(subgraphsFrom:origin:)` for a file read through `environment.fileAccess`,
  /// relative to `environment.documentFolder`.
  public mutating func register(subgraphsFrom path: String) throws(GraphValidationError) {
    let probe = FlowDocument(imports: [path])
    let sources = try SubgraphImports.sources(
      of: probe, folder: environment.documentFolder, policy: environment.fileAccess)
    for source in sources {
      try register(subgraphsFrom: FlowDocument(subgraphs: source.definitions), origin: source.origin)
    }
  }

  public var subgraphSources: [SubgraphSource] { registeredSubgraphs }
}
