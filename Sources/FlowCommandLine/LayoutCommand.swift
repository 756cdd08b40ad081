import Foundation
import FlowGraph
import FlowLayout
import FlowRuntime

/// `flow layout FILE`: write layered positions into the document, for editors.
enum LayoutCommand {
  static let spec = CommandSpec(
    name: "layout", summary: "Write layered positions into a saved graph's nodes (headless auto-layout).",
    positionals: ["FILE"],
    options: [
      OptionSpec(name: "--output", arity: .single, valueName: "FILE",
                 help: "write the document to FILE (atomically) instead of stdout", short: "-o"),
    ],
    positionalHelp: ["the saved graph (- reads standard input)"],
    discussion: """
      Only each node's position changes (a group with children moves to frame them); every other
      key is kept. Nodes keep their document sizes. Without -o the document goes to stdout, so
      'flow layout g.flow.json -o g.flow.json' rewrites the file in place.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure) -> ExitStatus {
    let file = arguments.positionals[0]
    var document = try DocumentLoading.document(file)
    let graph = try DocumentLoading.validate(document, registry: context.registry, file: file)
    GraphLayout(graph, sizing: .document).apply(to: &document)
    let text = document.jsonString() + "\n"
    if let path = arguments.value("--output") { try RenderCommand.write(text, to: path) } else { output = text }
    return .success
  }
}
