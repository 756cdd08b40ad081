import FlowGraph

// Terse builders for documents in tests:
//
//     let document = FlowDocument(
//       nodes: [.node("a", "number"), .node("b", "number"), .node("sum", "add")],
//       edges: [.edge("e1", "a", "sum.a"), .edge("e2", "b.value", "sum.b")])

extension FlowNode {
  /// A node of `kind` with `params`, every other field at its default.
  ///
  /// - Parameters:
  ///   - id: the node id.
  ///   - kind: the node spec's `kind`.
  ///   - params: the node spec's `params`.
  ///   - label: the node spec's `label`.
  ///   - handles: declared handles; `nil` (the default) derives them from the kind.
  public static func node(
    _ id: String, _ kind: String, params: JSONObject = [:], label: String? = nil,
    handles: [HandleDeclaration]? = nil
  ) -> FlowNode {
    FlowNode(id: id, data: NodeSpec(kind: kind, params: params, label: label), handles: handles)
  }
}

extension FlowEdge {
  /// An edge from `source` to `target`, each written `"node.handle"` or `"node"` (no handle id).
  ///
  /// The node id is everything before the last `.`, so node ids may contain dots only when a
  /// handle is named.
  public static func edge(_ id: String, _ source: String, _ target: String) -> FlowEdge {
    let (sourceNode, sourceHandle) = endpoint(source)
    let (targetNode, targetHandle) = endpoint(target)
    return FlowEdge(
      id: id, sourceNodeID: sourceNode, sourceHandleID: sourceHandle,
      targetNodeID: targetNode, targetHandleID: targetHandle)
  }

  private static func endpoint(_ text: String) -> (String, String?) {
    guard let dot = text.lastIndex(of: ".") else { return (text, nil) }
    return (String(text[..<dot]), String(text[text.index(after: dot)...]))
  }
}

/// Documents of a given shape, for tests.
public enum DocumentBuilder {
  /// `count` nodes `n0 → n1 → … ` of the `TestCatalog` kind `pass` (the first is a `number`),
  /// joined by edges `e1`, `e2`, … from `out`/`value` to `in`.
  ///
  /// - Complexity: O(*count*); no JSON is involved.
  public static func chain(count: Int) -> FlowDocument {
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    nodes.reserveCapacity(count)
    edges.reserveCapacity(max(count - 1, 0))
    for index in 0..<count {
      nodes.append(.node("n\(index)", index == 0 ? "number" : "pass"))
      if index > 0 {
        edges.append(
          FlowEdge(
            id: "e\(index)", sourceNodeID: "n\(index - 1)", sourceHandleID: index == 1 ? "value" : "out",
            targetNodeID: "n\(index)", targetHandleID: "in"))
      }
    }
    return FlowDocument(nodes: nodes, edges: edges)
  }

  /// A document of `merge` nodes `n0 … n(count-1)` with an edge `source → target` for each
  /// pair, in order; edge ids are `e0`, `e1`, …. Each edge goes from `out` into the next free
  /// input of its target (`in0`, `in1`, …), and each node has as many inputs as it has edges in,
  /// so any directed multigraph, cycles and self-loops included, is valid but for its cycles.
  public static func mergeGraph(count: Int, edges pairs: [(Int, Int)]) -> FlowDocument {
    var inDegree = [Int](repeating: 0, count: count)
    var edges: [FlowEdge] = []
    edges.reserveCapacity(pairs.count)
    for (index, (source, target)) in pairs.enumerated() {
      edges.append(
        FlowEdge(
          id: "e\(index)", sourceNodeID: "n\(source)", sourceHandleID: "out",
          targetNodeID: "n\(target)", targetHandleID: "in\(inDegree[target])"))
      inDegree[target] += 1
    }
    let nodes = (0..<count).map { FlowNode.node("n\($0)", "merge", params: ["inputs": .number(Double(inDegree[$0]))]) }
    return FlowDocument(nodes: nodes, edges: edges)
  }
}

extension FlowDocument {
  /// Reads a document from JSON text (a convenience over `init(jsonBytes:)`).
  ///
  /// - Throws: `DocumentLoadError` as `init(jsonBytes:)` does.
  public init(jsonText: String) throws(DocumentLoadError) {
    try self.init(jsonBytes: Array(jsonText.utf8))
  }
}

extension FlowDocument {
  /// Every issue `DocumentValidator` finds in the document, in the order it reports them; empty
  /// when the document is valid.
  ///
  /// - Parameter catalog: the kinds to validate against; `TestCatalog` unless told.
  public func validationIssues(catalog: some NodeCatalog = TestCatalog()) -> [GraphIssue] {
    do {
      _ = try DocumentValidator.validate(self, catalog: catalog)
      return []
    } catch {
      return error.issues
    }
  }
}
