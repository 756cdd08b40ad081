/// Inlines subgraph instances (Reference.md, "Subgraphs"): the flattened graph an engine evaluates.
///
/// An instance `I` of definition `D` becomes:
/// - each inner node `n` of `D` as `I/n` (an inner instance expands the same way, `I/J/n`);
/// - each `input` node `x` as `I/x` of kind `subgraph.input`, whose input `value` takes the
///   edge into `I`'s port (redirected there), else the instance's param, else the `default`;
/// - each `output` node `y` as `I/y` of kind `subgraph.output` (no outputs);
/// - `I` itself as a node of kind `subgraph.instance` whose inputs are fed by what feeds each
///   `output` node and whose outputs are the instance's ports, so edges out of `I` stay as
///   written and `I` prints like any node.
///
/// Inner edges become `I/<edge id>`; the edge feeding `I`'s port `p` from output node `y` is
/// `I/y/` (inner ids never contain `/`, so no two ids meet).
///
/// - Complexity: O(size of the flattened graph); recursion only as deep as the nesting (at
///   most `SubgraphLibrary.maximumDepth`).
public enum SubgraphExpander {
  /// Kinds whose names start with this exist only in flattened graphs.
  public static let reservedPrefix = "subgraph."
  public static let inputKind = "subgraph.input"
  public static let outputKind = "subgraph.output"
  public static let instanceKind = "subgraph.instance"

  /// The flattened document: every instance inlined; definitions and imports dropped; the
  /// viewport, extra keys and live state kept.
  public static func expand(_ document: FlowDocument, library: SubgraphLibrary) -> FlowDocument {
    var flat = FlowDocument(viewport: document.viewport, extra: document.extra, liveState: document.liveState)
    // The key order as read, so a store built from the flattened graph writes the document back
    // as it was (`StoreSubgraphs.folded` puts the definitions back).
    flat.shape = document.shape
    guard !library.isEmpty, document.nodes.contains(where: { library[$0.data.kind] != nil }) else {
      flat.nodes = document.nodes
      flat.edges = document.edges
      return flat
    }
    var builder = Builder(library: library)
    // Reserved once: appending instance by instance then grows geometrically.
    builder.nodes.reserveCapacity(
      min(
        SubgraphLibrary.maximumInlinedNodes,
        document.nodes.reduce(0) { SubgraphLibrary.saturatingSum($0, library.inlinedSize(of: $1.data.kind)) }))
    builder.level(document.nodes, document.edges, prefix: "", topLevel: true)
    flat.nodes = builder.nodes
    flat.edges = builder.edges
    return flat
  }

  /// The nodes and edges instance `node` (of a definition in `library`) inlines, with `id`
  /// as its id, the instance node itself last among the nodes.
  public static func expansion(of node: FlowNode, library: SubgraphLibrary) -> (nodes: [FlowNode], edges: [FlowEdge]) {
    var builder = Builder(library: library)
    builder.instance(node, id: node.id)
    return (builder.nodes, builder.edges)
  }

  /// The edge `edge` of a level whose nodes are `kinds` (id → kind) becomes in the flattened
  /// graph: into an instance's port, it targets that port's `input` node instead.
  public static func redirected(_ edge: FlowEdge, targetKind: String?, prefix: String = "", library: SubgraphLibrary)
    -> FlowEdge
  {
    var flat = edge
    flat.id = prefix + edge.id
    flat.sourceNodeID = prefix + edge.sourceNodeID
    flat.targetNodeID = prefix + edge.targetNodeID
    if let kind = targetKind, let subgraph = library[kind] {
      let port =
        edge.targetHandleID.flatMap { handle in subgraph.input(named: handle) }
        ?? (edge.targetHandleID == nil && subgraph.inputs.count == 1 ? subgraph.inputs[0] : nil)
      if let port {
        flat.targetNodeID = prefix + edge.targetNodeID + "/" + port.nodeID
        flat.targetHandleID = "value"
      }
    }
    return flat
  }

  /// The instances among `nodes` that neither connect nor set a required input, one issue
  /// per missing input, naming instance and port.
  public static func missingInputs(_ nodes: [FlowNode], _ edges: [FlowEdge], library: SubgraphLibrary) -> [GraphIssue] {
    guard !library.isEmpty else { return [] }
    var instances: [String: ResolvedSubgraph] = [:]
    for node in nodes { if let subgraph = library[node.data.kind] { instances[node.id] = subgraph } }
    guard !instances.isEmpty else { return [] }
    var connected: [String: Set<String>] = [:]
    for edge in edges {
      guard let subgraph = instances[edge.targetNodeID] else { continue }
      if let handle = edge.targetHandleID ?? (subgraph.inputs.count == 1 ? subgraph.inputs[0].name : nil) {
        connected[edge.targetNodeID, default: []].insert(handle)
      }
    }
    var issues: [GraphIssue] = []
    for node in nodes {
      guard let subgraph = instances[node.id] else { continue }
      for port in subgraph.inputs where port.isRequired {
        if connected[node.id]?.contains(port.name) == true { continue }
        if let value = node.data.params[port.name], !value.isNull { continue }
        issues.append(
          GraphIssue(
            .missingInput,
            "node '\(node.id)' (\(subgraph.name)): input '\(port.name)' is required (it has no default): connect it or set the param '\(port.name)'",
            nodeIDs: [node.id], handleID: port.name, parameter: port.name))
      }
    }
    return issues
  }

  /// Collects the flattened nodes and edges.
  struct Builder {
    var templates: SubgraphTemplates
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    /// While making a template: the `input` nodes of its own level.
    var inputs: [(index: Int, port: String)] = []
    var library: SubgraphLibrary { templates.library }

    init(library: SubgraphLibrary) { templates = SubgraphTemplates(library: library) }
    init(templates: SubgraphTemplates) { self.templates = templates }

    /// Inlines one level: the document (`prefix` empty, `topLevel`), or a definition being
    /// made a template (`prefix` `/`).
    mutating func level(_ levelNodes: [FlowNode], _ levelEdges: [FlowEdge], prefix: String, topLevel: Bool) {
      var kinds: [String: String] = [:]
      for node in levelNodes where library[node.data.kind] != nil { kinds[node.id] = node.data.kind }
      for node in levelNodes {
        if library[node.data.kind] != nil {
          // Renamed so that a nested instance's parent is inlined with it too.
          instance(topLevel ? node : renamed(node, prefix), id: prefix + node.id)
        } else if !topLevel && node.data.kind == SubgraphBoundary.inputKind {
          var flat = renamed(node, prefix)
          flat.data.kind = SubgraphExpander.inputKind
          inputs.append((nodes.count, node.data.params["name"]?.stringValue ?? ""))
          nodes.append(flat)
        } else if !topLevel && node.data.kind == SubgraphBoundary.outputKind {
          var flat = renamed(node, prefix)
          flat.data.kind = SubgraphExpander.outputKind
          nodes.append(flat)
        } else {
          nodes.append(topLevel ? node : renamed(node, prefix))
        }
      }
      for edge in levelEdges {
        let kind = kinds[edge.targetNodeID]
        if topLevel && kind == nil {
          edges.append(edge)
        } else {
          edges.append(SubgraphExpander.redirected(edge, targetKind: kind, prefix: prefix, library: library))
        }
      }
    }

    /// Inlines instance `node` as `id`, from its definition's template.
    mutating func instance(_ node: FlowNode, id: String) {
      guard let template = templates.template(node.data.kind) else { return }
      template.stamp(node, id: id, nodes: &nodes, edges: &edges)
    }

    /// The template of `subgraph`: its definition inlined under the prefix `/`, the instance
    /// node (id `""`) last.
    mutating func template(_ subgraph: ResolvedSubgraph) -> SubgraphTemplate {
      let definition = subgraph.definition
      let prefix = "/"
      level(definition.nodes, definition.edges, prefix: prefix, topLevel: false)
      // The instance node: fed by what feeds each output node.
      var feeding: [String: FlowEdge] = [:]
      for edge in definition.edges { feeding[edge.targetNodeID] = edge }
      for port in subgraph.outputs {
        guard let edge = feeding[port.nodeID] else { continue }
        edges.append(
          FlowEdge(
            id: prefix + port.nodeID + "/", sourceNodeID: prefix + edge.sourceNodeID,
            sourceHandleID: edge.sourceHandleID, targetNodeID: "", targetHandleID: port.name))
      }
      let outputs = JSONValue.array(
        subgraph.outputs.map { .object(["name": .string($0.name), "type": .string($0.type.rawValue)]) })
      let spec = NodeSpec(
        kind: SubgraphExpander.instanceKind, params: ["definition": .string(subgraph.name), "outputs": outputs])
      nodes.append(FlowNode(id: "", data: spec))
      return SubgraphTemplate(nodes: nodes, edges: edges, inputs: inputs)
    }

    func renamed(_ node: FlowNode, _ prefix: String) -> FlowNode {
      var flat = node
      flat.id = prefix + node.id
      if let parent = node.parentID { flat.parentID = prefix + parent }
      return flat
    }
  }
}
