import FlowGraph

/// `subgraph.instance`: an instance node of the flattened graph (Reference.md, "Subgraphs"). Each input is fed
/// by what feeds one `output` node of the definition, and the output of the same name
/// forwards it, so the instance prints and connects like any node.
struct SubgraphInstanceKind: NodeKind {
  var name: String { SubgraphExpander.instanceKind }
  var summary: String { "an instance of a subgraph, inlined (made by the subgraph expansion)" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("definition", .string, required: true, summary: "the subgraph's name"),
      ParameterDeclaration("outputs", .list, default: .list([]), summary: "the ports: [{name, type}]")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var inputs: [InputPort] = []
    var outputs: [PortDeclaration] = []
    for entry in parameters.json("outputs")?.arrayValue ?? [] {
      guard let object = entry.objectValue, let name = object["name"]?.stringValue,
        let type = object["type"]?.stringValue.flatMap(PortType.init(rawValue:))
      else {
        throw NodeConfigurationError(parameter: "outputs", reason: "must list {\"name\": …, \"type\": …} objects")
      }
      inputs.append(InputPort(name, .any, default: .null))
      outputs.append(PortDeclaration(name, type))
    }
    return NodeInstance(inputs: inputs, outputs: outputs, evaluator: Forward(), scalarEvaluation: .forward)
  }
}
