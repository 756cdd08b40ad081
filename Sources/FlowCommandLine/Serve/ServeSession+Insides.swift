import FlowGraph
import FlowHTTP
import FlowLayout
import FlowRuntime

/// A subgraph instance opened on the page: the page draws an instance as one node
/// (`data-subgraph` names its definition), and `GET /inside.svg?node=PATH` draws the definition
/// of the instance at PATH (`clean`, or `clean/inner` for an instance inside a definition) as a
/// picture of its own, read-only: its inner nodes, ids `PATH/<inner>`, with the values of the
/// last pass (the flattened graph's ids), laid out like the page's picture, params as text and
/// no fields; nested instances carry `data-subgraph` too, so they open in turn.
///
/// Invariant: PATH has at most `SubgraphLibrary.maximumDepth` segments (the library refuses
/// deeper nesting), so one request walks at most that many definitions.
extension ServeSession {
  /// The picture of the definition of the instance the query's `node` names, or a 400/404 that
  /// names the node.
  ///
  /// - Complexity: O(nodes of the document and of the definitions on the path + size of the picture).
  func insideSVG(_ target: String) -> HTTPResponse {
    let path: String
    do throws(ServeTables.Refusal) {
      let query = try ServeTables.query(of: target)
      guard let node = query.first(where: { $0.name == "node" })?.value, !node.isEmpty else {
        return Self.json(400, ["error": "/inside.svg takes ?node=ID, the id of a subgraph instance"])
      }
      path = node
    } catch {
      return Self.json(error.status, ["error": .string(error.message)])
    }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard segments.count <= SubgraphLibrary.maximumDepth else {
      return Self.json(
        400,
        [
          "error": .string(
            "node path '\(String(path.prefix(100)))' is deeper than \(SubgraphLibrary.maximumDepth) instances")
        ])
    }
    let library = engine.store.subgraphLibrary
    var nodes = engine.store.export().nodes
    var definition: SubgraphDefinition?
    var walked = ""
    for segment in segments {
      walked += walked.isEmpty ? segment : "/" + segment
      guard let node = nodes.first(where: { $0.id == segment }) else {
        return Self.json(404, ["error": .string("there is no node '\(String(walked.prefix(200)))'")])
      }
      guard let subgraph = library[node.data.kind] else {
        return Self.json(
          400,
          [
            "error": .string(
              "node '\(String(walked.prefix(200)))' (kind '\(node.data.kind)') is not a subgraph instance")
          ])
      }
      definition = subgraph.definition
      nodes = subgraph.definition.nodes
    }
    guard let definition else {
      return Self.json(400, ["error": "/inside.svg takes ?node=ID, the id of a subgraph instance"])
    }
    // The library validated every definition: one that fails here is drawn as its message.
    let catalog = SubgraphCatalog(base: registry, library: library, insideDefinition: true)
    guard
      let graph = try? DocumentValidator.validate(
        FlowDocument(nodes: definition.nodes, edges: definition.edges), catalog: catalog)
    else {
      return Self.json(500, ["error": .string("the definition of '\(String(path.prefix(200)))' does not validate")])
    }
    let snapshot = state.withLock { $0.snapshot }
    var picture = GraphPicture(graph: graph, values: snapshot, idPrefix: path + "/")
    picture.placeLayered()
    let svg = ServePageSVG.svg(
      picture, graph: graph, registry: registry, liveSources: [], editable: false,
      subgraphKinds: Set(library.subgraphs.keys))
    return Self.secured(
      HTTPResponse(
        status: 200, contentType: "image/svg+xml; charset=utf-8", text: svg,
        headers: [HTTPHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")]))
  }
}
