import FlowNodes
import FlowRuntime

/// `flow validate FILE`: check a saved graph without evaluating it.
enum ValidateCommand {
  static let spec = CommandSpec(name: "validate", summary: "Check a saved graph against the node kinds and graph rules (SPEC §4).",
                                positionals: ["FILE"], options: [])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure) -> ExitStatus {
    let file = arguments.positionals[0]
    let document = try DocumentLoading.document(file)
    let graph = try DocumentLoading.validate(document, registry: context.registry, file: file)
    output = "\(file): valid (\(graph.nodeCount) nodes, \(graph.edges.count) edges)\n"
    return .success
  }
}
