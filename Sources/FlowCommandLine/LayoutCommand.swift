import Foundation
import FlowGraph
import FlowLayout
import FlowRuntime

/// `flow layout FILE`: write layered positions into the document, for editors.
enum LayoutCommand {
  static let spec = CommandSpec(
    name: "layout", summary: "Write layered positions and sizes into a saved graph's nodes (headless auto-layout).",
    positionals: ["FILE"],
    options: [
      OptionSpec(
        name: "--output", arity: .single, valueName: "FILE",
        help: "write the document to FILE (atomically) instead of stdout", short: "-o")
    ],
    positionalHelp: ["the saved graph (- reads standard input)"],
    discussion: """
      Only each node's position and size change (a group with children moves to frame them);
      every other key is kept. Each node is laid out at the size 'flow render' draws it (never
      smaller than its document size), and that size is written, so 'flow render --layout
      document' draws the same boxes. Without -o the document goes to stdout, so 'flow layout
      g.flow.json -o g.flow.json' rewrites the file in place.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    let file = arguments.positionals[0]
    var document = try DocumentLoading.document(file)
    let graph = try DocumentLoading.validateOuter(document, registry: context.registry, file: file).graph
    GraphLayout(graph, sizing: .picture).apply(to: &document, sizes: true)
    let text = document.jsonString() + "\n"
    if let path = arguments.value("--output") { try RenderCommand.write(text, to: path) } else { output = text }
    return .success
  }
}
