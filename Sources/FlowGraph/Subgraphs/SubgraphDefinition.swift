/// A kind made of a graph (Reference.md, "Subgraphs"): the nodes and edges of `flowRuntime.subgraphs.<name>`.
///
/// Inside a definition, nodes of kind `input` (params `name`, `type`, `default`) and `output`
/// (param `name`) are its ports, in the order of their nodes. A node whose kind is the
/// definition's name is an instance: it evaluates as if these nodes were inlined with ids
/// `<instance>/<inner id>` (see `SubgraphExpander`).
public struct SubgraphDefinition: Sendable, Hashable {
  /// One line saying what the kind computes (`flow nodes` shows it).
  public var summary: String?
  public var nodes: [FlowNode]
  public var edges: [FlowEdge]
  /// Keys of the definition other than `summary`, `nodes` and `edges`, kept as read.
  public var extra: JSONObject
  /// Every key of the definition in the order read, when not sorted (see `ObjectShape`).
  public var keyOrder: [String]?

  public init(summary: String? = nil, nodes: [FlowNode] = [], edges: [FlowEdge] = [], extra: JSONObject = JSONObject())
  {
    self.summary = summary
    self.nodes = nodes
    self.edges = edges
    self.extra = extra
  }
}
