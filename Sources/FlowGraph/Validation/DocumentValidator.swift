/// Checks a document against the rules of Reference.md, "Validation", and resolves it to dense indices.
///
/// Every rule runs, and all their issues are thrown together, in this order: unique ids, node
/// specs (unknown kinds, invalid params, handles that disagree with the kind), params fed by
/// edges (which add inputs), edge endpoints
/// (dangling edges, unknown handles, wrong direction, ambiguous handle-less ends, type
/// mismatches), one edge per input, cycles.
public enum DocumentValidator {
  /// Validates `document` against the kinds of `catalog`.
  ///
  /// - Returns: the graph with dense indices and a topological order.
  /// - Throws: every problem found, each naming the node, edge, handle or param concerned.
  /// - Complexity: O(*n* + *m* log *m*) for *n* nodes and *m* edges; no recursion.
  public static func validate(_ document: FlowDocument, catalog: some NodeCatalog) throws(GraphValidationError)
    -> ResolvedGraph
  {
    try validate(document, resolutions: document.nodes.map { catalog.resolve($0.data) })
  }

  /// Validates `document` against `catalog`, also returning the catalog's payload for each
  /// node (`NodeCatalog.resolveWithPayload`), by node index: what `FlowStore` keeps for engines.
  package static func validateKeepingPayloads(_ document: FlowDocument, catalog: some NodeCatalog)
    throws(GraphValidationError) -> (graph: ResolvedGraph, payloads: [(any Sendable)?])
  {
    var resolutions: [NodeSpecResolution] = []
    var payloads: [(any Sendable)?] = []
    resolutions.reserveCapacity(document.nodes.count)
    payloads.reserveCapacity(document.nodes.count)
    for node in document.nodes {
      let (resolution, payload) = catalog.resolveWithPayload(node.data)
      resolutions.append(resolution)
      payloads.append(payload)
    }
    return (try validate(document, resolutions: resolutions), payloads)
  }

  /// Validates `document` given what a catalog said of each node's spec, for callers that
  /// resolved the specs already (the runtime configures each node once and reuses the result).
  ///
  /// - Parameter resolutions: `resolutions[i]` for `document.nodes[i]`.
  public static func validate(_ document: FlowDocument, resolutions: [NodeSpecResolution]) throws(GraphValidationError)
    -> ResolvedGraph
  {
    precondition(resolutions.count == document.nodes.count, "one resolution per node")
    // Dense indices are `Int32`; a document read within the size limit is far smaller.
    guard document.nodes.count < Int32.max, document.edges.count < Int32.max else {
      throw GraphValidationError(
        GraphIssue(
          .malformedDocument,
          "the document has \(document.nodes.count) nodes and \(document.edges.count) edges; at most \(Int32.max - 1) of each are supported"
        ))
    }
    var context = ValidationContext(document: document, resolutions: resolutions)
    UniqueIDRule.check(&context)
    NodeSpecRule.check(&context)
    ParameterInputRule.check(&context)
    EdgeEndpointRule.check(&context)
    SingleInputRule.check(&context)
    let order = CycleRule.check(&context)
    guard !context.hasIssues else { throw context.error }
    return ResolvedGraph(
      document: document, signatures: context.signatures.resolved(), edges: context.edges,
      topologicalOrder: order, nodeIDs: context.nodeIDs, nodeTable: context.nodeTable)
  }

  /// Reads and validates a document from the bytes of a JSON file.
  ///
  /// - Throws: `DocumentLoadError.syntax` for bad JSON, `.invalid` with every problem otherwise.
  public static func load(_ bytes: [UInt8], catalog: some NodeCatalog) throws(DocumentLoadError) -> ResolvedGraph {
    let document = try FlowDocument(jsonBytes: bytes)
    do { return try validate(document, catalog: catalog) } catch { throw .invalid(error) }
  }
}
