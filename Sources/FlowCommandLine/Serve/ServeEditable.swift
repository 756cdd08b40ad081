import FlowGraph
import FlowRuntime

/// What the page lets the user edit on one node: its shown number, integer, bool, text, list
/// and record params (lists and records as JSON), and its unconnected inputs of those types (a
/// value set there becomes the param of the input's name).
struct ServeEditable: Sendable, Hashable {
  /// One editable field.
  struct Field: Sendable, Hashable {
    var name: String
    var type: PortType
    /// An input port (set by a param of its name) rather than a param.
    var isInput: Bool
  }

  static let editableTypes: Set<PortType> = [.number, .integer, .bool, .string, .list, .record]

  /// The editable params (by name) and inputs (by port index) of node `index` of `graph`.
  static func fields(
    of index: Int, in graph: ResolvedGraph, connected: Set<Int64>,
    registry: NodeKindRegistry
  ) -> (params: [String: Field], inputs: [Int: Field]) {
    let node = graph.document.nodes[index]
    let signature = graph.signatures[index]
    let portNames = Set(signature.inputs.map(\.name))
    var params: [String: Field] = [:]
    for declaration in registry.kind(named: node.data.kind)?.parameters ?? []
    where editableTypes.contains(declaration.type) && !portNames.contains(declaration.name)
      && declaration.name != "policy"
    {
      params[declaration.name] = Field(name: declaration.name, type: declaration.type, isInput: false)
    }
    var inputs: [Int: Field] = [:]
    for (port, input) in signature.inputs.enumerated()
    where editableTypes.contains(input.type) && !connected.contains(Int64(index) << 32 | Int64(port)) {
      inputs[port] = Field(name: input.name, type: input.type, isInput: true)
    }
    return (params, inputs)
  }

  /// The field `name` of the node (a param or an unconnected input), as the store holds it now.
  static func field(named name: String, node: FlowNode, store: FlowStore, registry: NodeKindRegistry) -> Field? {
    if let declaration = registry.kind(named: node.data.kind)?.parameters.first(where: { $0.name == name }),
      editableTypes.contains(declaration.type)
    {
      return Field(name: name, type: declaration.type, isInput: false)
    }
    guard case .resolved(let signature) = registry.resolve(node.data),
      let input = signature.inputs.first(where: { $0.name == name }), editableTypes.contains(input.type)
    else { return nil }
    let connected = store.incomingEdges(of: node.id).contains { edge in
      edge.targetHandleID == name || (edge.targetHandleID == nil && signature.inputs.count == 1)
    }
    return connected ? nil : Field(name: name, type: input.type, isInput: true)
  }

  /// A param's value as the input shows it: strings unquoted, others as JSON with the keys in
  /// the document's order (a record's order is meaning: `derive.columns`).
  static func text(_ value: JSONValue) -> String {
    if case .string(let text) = value { return text }
    return value.serialized(options: [])
  }
}
