/// A document with its subgraphs validated and its instances inlined (Reference.md, "Subgraphs").
public struct ExpandedDocument: Sendable {
  /// The document as written (instances as nodes).
  public var document: FlowDocument
  /// Its definitions and those it imports.
  public var library: SubgraphLibrary
  /// The flattened graph: what an engine evaluates.
  public var flat: FlowDocument

  /// Whether the document has instances to inline (else `flat` is the document's graph).
  public var hasInstances: Bool { !library.isEmpty && document.nodes.contains { library[$0.data.kind] != nil } }

  /// Validates `document`'s definitions, its graph (instances against their definitions'
  /// ports) and inlines its instances.
  ///
  /// - Parameters:
  ///   - imported: the definitions of the documents it imports (read by the host, which
  ///     applies its file policy), after the document's own.
  ///   - catalog: the built-in and registered kinds.
  /// - Throws: every problem found in the definitions, then in the graph; the flattened graph
  ///   is not validated again here (the caller's validator does, against the same catalog).
  public init(_ document: FlowDocument, imported: [SubgraphSource] = [], catalog: some NodeCatalog)
    throws(GraphValidationError)
  {
    let (library, flat) = try Self.expand(document, imported: imported + catalog.subgraphSources, catalog: catalog)
    self.document = document
    self.library = library
    self.flat = flat
  }

  /// The library and the flattened graph of `document` (see `init`).
  static func expand(
    _ document: FlowDocument, imported: [SubgraphSource],
    catalog: some NodeCatalog
  ) throws(GraphValidationError) -> (SubgraphLibrary, FlowDocument) {
    let sources = [SubgraphSource(origin: SubgraphSource.thisDocument, definitions: document.subgraphs)] + imported
    let needsCheck =
      !document.subgraphs.isEmpty || imported.contains { !$0.definitions.isEmpty }
      || document.nodes.contains { Self.isBoundaryOrReserved($0.data.kind) }
    guard needsCheck else {
      var flat = document
      flat.subgraphs = [:]
      flat.imports = []
      return (SubgraphLibrary(), flat)
    }
    let library = try SubgraphLibrary(sources, catalog: catalog)
    var collector = IssueCollector()
    let outerCatalog = SubgraphCatalog(base: catalog, library: library)
    do { _ = try DocumentValidator.validate(document, catalog: outerCatalog) } catch {
      collector.report(error, prefix: "")
    }
    for issue in SubgraphExpander.missingInputs(document.nodes, document.edges, library: library) {
      collector.report(issue)
    }
    if collector.hasIssues { throw collector.error }
    try Self.checkSize(document, library)
    let flat = SubgraphExpander.expand(document, library: library)
    // A top-level id with '/' may equal an inlined one.
    let slashed = Set(document.nodes.lazy.map(\.id).filter { $0.contains("/") })
    if !slashed.isEmpty {
      var seen = Set<String>()
      for node in flat.nodes where slashed.contains(node.id) && !seen.insert(node.id).inserted {
        let instance = String(node.id[..<node.id.firstIndex(of: "/")!])
        collector.report(
          GraphIssue(
            .duplicateNodeID,
            "node id '\(node.id)' is also the id of a node inlined from instance '\(instance)'; rename the node",
            nodeIDs: [node.id]))
      }
      if collector.hasIssues { throw collector.error }
    }
    return (library, flat)
  }

  /// Refuses a document whose instances would inline more than `maximumInlinedNodes`.
  static func checkSize(_ document: FlowDocument, _ library: SubgraphLibrary) throws(GraphValidationError) {
    let total = document.nodes.reduce(0) { SubgraphLibrary.saturatingSum($0, library.inlinedSize(of: $1.data.kind)) }
    let limit = SubgraphLibrary.maximumInlinedNodes
    if total > limit {
      let count = total == Int.max ? "more than \(Int.max)" : "\(total)"
      throw GraphValidationError(
        GraphIssue(
          .invalidSubgraph,
          "inlining the instances would make \(count) nodes; at most \(limit) are allowed (nested instances multiply; --max-inlined-nodes N raises the limit)"
        ))
    }
  }

  static func isBoundaryOrReserved(_ kind: String) -> Bool {
    kind == SubgraphBoundary.inputKind || kind == SubgraphBoundary.outputKind
      || kind.hasPrefix(SubgraphExpander.reservedPrefix)
  }

  /// The ids of the document's own nodes (not inlined ones), as a set.
  public var outerNodeIDs: Set<String> { Set(document.nodes.map(\.id)) }
}
