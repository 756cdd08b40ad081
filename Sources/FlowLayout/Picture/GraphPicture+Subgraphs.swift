import FlowGraph
import FlowRuntime

/// Subgraph instances drawn with their inside (`flow render --expand`): an instance's box
/// keeps its title, kind (the definition's name) and port rows, so edges from outside reach
/// its ports as on a collapsed instance, and grows a frame below them holding its definition's
/// nodes laid out on their own (ids `<instance>/<inner>`), the `input` and `output` nodes as
/// small port markers; nested instances are frames inside frames. Each level is its own
/// layered layout and a frame is one box of the level around it, so no edge passes under a
/// node and no box overlaps another at any depth.
extension GraphPicture {
  /// One instance's inside.
  package struct Inside {
    /// The definition's nodes, ids prefixed with the instance's, placed from (0, 0).
    package var picture: GraphPicture
    /// Distance from the instance box's top to the inside's top (0 until placed).
    package var top: Double
    /// For each input port of the instance, the inner box of its `input` node.
    package var inputBoxes: [Int]
    /// For each output port of the instance, the inner box of its `output` node.
    package var outputBoxes: [Int]
  }

  /// Gives every box of `graph` that is an instance of a definition of `library` its inside
  /// (nested instances theirs), ready to lay out with `placeLayered` or `placeFromDocument`.
  ///
  /// - Parameters:
  ///   - catalog: the kinds the definitions use (the library's own come from `library`).
  ///   - values: the evaluator of the flattened graph, whose inner ids are `<instance>/<inner>`.
  package mutating func expandInstances(
    graph: ResolvedGraph, library: SubgraphLibrary, catalog: any NodeCatalog,
    values: GraphEvaluator?
  ) {
    var definitions: [String: ResolvedGraph] = [:]
    expandInstances(graph: graph, library: library, catalog: catalog, values: values, definitions: &definitions)
  }

  private mutating func expandInstances(
    graph: ResolvedGraph, library: SubgraphLibrary, catalog: any NodeCatalog,
    values: GraphEvaluator?, definitions: inout [String: ResolvedGraph]
  ) {
    for (index, node) in graph.document.nodes.enumerated() {
      guard let subgraph = library[node.data.kind] else { continue }
      let inner: ResolvedGraph
      if let known = definitions[subgraph.name] {
        inner = known
      } else {
        // The library validated every definition; a failure here would be a bug, drawn collapsed.
        let innerCatalog = SubgraphCatalog(base: catalog, library: library, insideDefinition: true)
        guard
          let resolved = try? DocumentValidator.validate(
            FlowDocument(nodes: subgraph.definition.nodes, edges: subgraph.definition.edges), catalog: innerCatalog)
        else { continue }
        definitions[subgraph.name] = resolved
        inner = resolved
      }
      var picture = GraphPicture(graph: inner, values: values, idPrefix: boxes[index].id + "/")
      picture.markBoundaries()
      picture.expandInstances(
        graph: inner, library: library, catalog: catalog, values: values, definitions: &definitions)
      let boxOf = Dictionary(
        inner.document.nodes.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
      insides[index] = Inside(
        picture: picture, top: 0,
        inputBoxes: subgraph.inputs.map { boxOf[$0.nodeID] ?? -1 },
        outputBoxes: subgraph.outputs.map { boxOf[$0.nodeID] ?? -1 })
    }
  }

  /// Draws the `input` and `output` nodes of a definition as port markers: `input <port>`
  /// (or `output <port>`) as the kind, no `name` param.
  private mutating func markBoundaries() {
    for index in boxes.indices
    where boxes[index].kind == SubgraphBoundary.inputKind || boxes[index].kind == SubgraphBoundary.outputKind {
      let name =
        boxes[index].params.first { $0.hasPrefix("name: ") }.map { String($0.dropFirst(6)) } ?? boxes[index].title
      boxes[index].kind = boxes[index].kind + " " + Self.clip(name.trimmingCharacters(in: ["\""]))
      boxes[index].params = boxes[index].params.filter { !$0.hasPrefix("name: ") }
      boxes[index].isPortMarker = true
      Self.measure(&boxes[index])
    }
  }

  /// Lays out each inside (its own insides first, in `placeLayered`) and grows its
  /// instance's box below the port rows to hold it. Once per picture.
  mutating func placeInsides() {
    for index in insides.keys.sorted() {
      guard var inside = insides[index], inside.top == 0 else { continue }
      inside.picture.placeLayered()
      inside.top = boxes[index].height
      boxes[index].width = max(boxes[index].width, inside.picture.width)
      boxes[index].height += inside.picture.height
      insides[index] = inside
    }
  }

  /// The inner box an edge into input `port` of box `index` reaches, as a path of box
  /// indices from this picture down (just `[index]` when the box has no inside).
  package func inputEnd(_ index: Int, port: Int) -> [Int] {
    guard let inside = insides[index], port < inside.inputBoxes.count, inside.inputBoxes[port] >= 0 else {
      return [index]
    }
    return [index] + [inside.inputBoxes[port]]
  }

  /// The inner box an edge out of output `port` of box `index` leaves from (see `inputEnd`).
  package func outputEnd(_ index: Int, port: Int) -> [Int] {
    guard let inside = insides[index], port < inside.outputBoxes.count, inside.outputBoxes[port] >= 0 else {
      return [index]
    }
    return [index, inside.outputBoxes[port]]
  }

  /// The box at `path` (indices from this picture down through insides; a path from
  /// `inputEnd` or `outputEnd`).
  package func box(at path: [Int]) -> Box {
    var picture = self
    for index in path.dropLast() {
      guard let inside = picture.insides[index] else { break }
      picture = inside.picture
    }
    return picture.boxes[path[path.count - 1]]
  }
}
