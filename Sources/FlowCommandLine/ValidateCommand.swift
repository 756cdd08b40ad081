import FlowNodes
import FlowRuntime

/// `flow validate FILE`: check a saved graph without evaluating it.
enum ValidateCommand {
  static let spec = CommandSpec(
    name: "validate", summary: "Check a saved graph against the node kinds and graph rules.",
    positionals: ["FILE"], options: [InlinedNodesOption.spec])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    let file = arguments.positionals[0]
    try InlinedNodesOption.apply(arguments)
    let document = try DocumentLoading.document(file)
    let (expanded, graph) = try DocumentLoading.validateExpanding(document, registry: context.registry, file: file)
    if expanded.hasInstances || !expanded.library.isEmpty {
      output =
        "\(file): valid (\(expanded.document.nodes.count) nodes, \(expanded.document.edges.count) edges; "
        + "\(expanded.library.subgraphs.count) subgraph\(expanded.library.subgraphs.count == 1 ? "" : "s"), "
        + "\(graph.nodeCount) nodes inlined)\n"
    } else {
      let nodes = graph.nodeCount, edges = graph.edges.count
      output = "\(file): valid (\(nodes) node\(nodes == 1 ? "" : "s"), \(edges) edge\(edges == 1 ? "" : "s"))\n"
    }
    for warning in pathWarnings(expanded.flat, file: file, registry: context.registry) { context.warn(warning) }
    return .success
  }
}
