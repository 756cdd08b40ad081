/// One instance of a definition inlined once, with ids relative to the instance: the instance
/// node's id is `""` and every other id starts with `/`, so instance `I` is `I` + each id.
/// Expanding many instances of a definition stamps this out (ids prefixed, the instance's
/// params set on its `input` nodes) instead of walking the definition again.
struct SubgraphTemplate: Sendable {
  /// The inlined nodes, the instance node last (its spec's label and extra come from the instance).
  var nodes: [FlowNode]
  var edges: [FlowEdge]
  /// The `input` nodes of the definition itself (not of nested instances): index into
  /// `nodes` and the port's name, whose param on the instance sets the node's `value`.
  var inputs: [(index: Int, port: String)] { didSet { inputPorts = Self.ports(inputs) } }
  /// `inputs` by node index: `node(_:of:id:)` looks a node's port up in O(1), not by scanning
  /// `inputs` (which made inlining every node of a definition with many inputs quadratic).
  private(set) var inputPorts: [Int: String]

  init(nodes: [FlowNode], edges: [FlowEdge], inputs: [(index: Int, port: String)]) {
    self.nodes = nodes
    self.edges = edges
    self.inputs = inputs
    self.inputPorts = Self.ports(inputs)
  }

  private static func ports(_ inputs: [(index: Int, port: String)]) -> [Int: String] {
    Dictionary(inputs.map { ($0.index, $0.port) }, uniquingKeysWith: { first, _ in first })
  }

  /// The node of `nodes[index]` for instance `node` written as `id`.
  func node(_ index: Int, of node: FlowNode, id: String) -> FlowNode {
    var flat = nodes[index]
    if index == nodes.count - 1 {
      var instance = node
      instance.id = id
      var spec = flat.data
      spec.label = node.data.label
      spec.extra = node.data.extra
      instance.data = spec
      instance.handles = nil
      return instance
    }
    flat.id = id + flat.id
    if let parent = flat.parentID { flat.parentID = id + parent }
    if let port = inputPorts[index], let value = node.data.params[port], !value.isNull {
      flat.data.params["value"] = value
    }
    return flat
  }

  /// The edge of `edges[index]` for an instance written as `id`.
  func edge(_ index: Int, id: String) -> FlowEdge {
    var flat = edges[index]
    flat.id = id + flat.id
    flat.sourceNodeID = id + flat.sourceNodeID
    flat.targetNodeID = id + flat.targetNodeID
    return flat
  }

  /// Appends instance `node`'s inlined nodes and edges, as `id`.
  func stamp(_ node: FlowNode, id: String, nodes out: inout [FlowNode], edges outEdges: inout [FlowEdge]) {
    let start = out.count
    for index in 0..<nodes.count - 1 {
      var flat = nodes[index]
      flat.id = id + flat.id
      if let parent = flat.parentID { flat.parentID = id + parent }
      out.append(flat)
    }
    for input in inputs {
      if let value = node.data.params[input.port], !value.isNull {
        out[start + input.index].data.params["value"] = value
      }
    }
    out.append(self.node(nodes.count - 1, of: node, id: id))
    for index in edges.indices { outEdges.append(edge(index, id: id)) }
  }
}

/// The templates of a library's definitions, each made the first time an expansion needs it
/// (never for a definition no instance uses: nested definitions can be huge).
struct SubgraphTemplates {
  let library: SubgraphLibrary
  private var made: [String: SubgraphTemplate] = [:]

  init(library: SubgraphLibrary) { self.library = library }

  /// The template of definition `name`, `nil` if the library has none.
  mutating func template(_ name: String) -> SubgraphTemplate? {
    if let template = made[name] { return template }
    guard let subgraph = library[name] else { return nil }
    var builder = SubgraphExpander.Builder(templates: self)
    let template = builder.template(subgraph)
    self = builder.templates
    made[name] = template
    return template
  }
}
