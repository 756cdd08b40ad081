import Foundation
import FlowGraph
import FlowLayout
import FlowRuntime

/// `flow render FILE`: draw the graph as SVG (laid out by us), DOT or Mermaid.
enum RenderCommand {
  static let spec = CommandSpec(
    name: "render", summary: "Draw a saved graph as SVG (laid out by FlowRuntime), Graphviz DOT or Mermaid.",
    positionals: ["FILE"],
    options: [
      OptionSpec(
        name: "--format", arity: .single, valueName: "svg|dot|mermaid", help: "output format (default svg)",
        choices: ["svg", "dot", "mermaid"]),
      OptionSpec(
        name: "--values", arity: .flag, help: "evaluate first (writing no file); show outputs, and failures in red"),
      OptionSpec(
        name: "--expand", arity: .flag, help: "draw each subgraph instance's inside in a frame (nested ones nested)"),
      OptionSpec(
        name: "--allow-read", arity: .repeated, valueName: "DIR",
        help: "with --values: let file nodes read inside DIR too (default: the document's folder only)"),
      OptionSpec(
        name: "--layout", arity: .single, valueName: "layered|document",
        help: "SVG positions: layered (default) or the document's", choices: ["layered", "document"]),
      OptionSpec(
        name: "--output", arity: .single, valueName: "FILE", help: "write to FILE (atomically) instead of stdout",
        short: "-o")
    ] + RunLimitOptions.specs,
    positionalHelp: ["the saved graph (- reads standard input)"],
    discussion: """
      The layered layout puts inputs on the left and outputs on the right of each node, sources
      in the first columns, and draws each edge through its path between the columns, never
      under a node; a long pipeline wraps into rows; groups are frames around their children.
      --layout document uses the document's positions and sizes (as 'flow layout' writes them). --values evaluates like 'flow run' (paths against the document's
      folder, the same --allow-read) but never writes: a write node shows 'not written
      (render)'. --expand draws each subgraph instance as a frame holding its definition's nodes
      (ids instance/inner, with --values their values), its input and output nodes as port
      markers; DOT and Mermaid make it a cluster, edges into a port joining its input node.
      Exit status 1 when --values finds a failed node (it is still drawn, its message whole),
      and its '<node> ! <message>' lines on stderr, as 'flow run' prints them.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    let file = arguments.positionals[0]
    let limits = try RunLimitOptions.limits(arguments)
    try RunLimitOptions.applyProcessWide(arguments)
    let workers = try RunLimitOptions.workers(arguments)
    let document = try DocumentLoading.document(file)
    let (expanded, graph) = try DocumentLoading.validateOuter(document, registry: context.registry, file: file)
    var evaluator: GraphEvaluator?
    if !arguments.all("--allow-read").isEmpty && !arguments.has("--values") {
      throw CommandFailure(.usage, ["flow: --allow-read needs --values"])
    }
    if arguments.has("--values") {
      var registry = context.registry
      registry.environment.limits = limits
      registry.environment.workers = workers
      registry = try RunCommand.environment(for: file, arguments, registry)
      registry.environment.writesFiles = false
      // With subgraphs, the flattened graph runs; instances show their own outputs (same ids).
      var values =
        expanded.hasInstances
        ? GraphEvaluator(
          try DocumentLoading.validate(expanded.flat, registry: registry, file: file), registry: registry)
        : GraphEvaluator(graph, registry: registry)
      values.evaluate()
      evaluator = values
    }
    var picture = GraphPicture(graph: graph, values: evaluator)
    if arguments.has("--expand") {
      picture.expandInstances(graph: graph, library: expanded.library, catalog: context.registry, values: evaluator)
    }
    let text: String
    switch arguments.value("--format") ?? "svg" {
    case "dot": text = DotWriter.dot(picture)
    case "mermaid": text = MermaidWriter.mermaid(picture)
    default:
      if arguments.value("--layout") == "document" {
        picture.placeFromDocument(document)
      } else {
        picture.placeLayered()
      }
      text = SVGWriter.svg(picture)
    }
    if let path = arguments.value("--output") { try write(text, to: path) } else { output = text }
    guard let evaluator else { return .success }
    // As `flow run` says it (stdout holds the picture): `<node> ! <message>` on stderr, exit 1.
    let failed = RunResult(evaluator: evaluator, nodes: evaluator.sinks)
    guard !failed.errors.isEmpty else { return .success }
    for line in failed.errorLines() { context.warn(line) }
    return .nodeFailed
  }

  /// Writes `text` to `path` atomically (a temporary file renamed over it).
  static func write(_ text: String, to path: String) throws(CommandFailure) {
    do { try AtomicFileWriter().write(Array(text.utf8), to: FileAccessPolicy.absolutePath(path)) } catch {
      throw CommandFailure(.usage, ["flow: -o \(path): cannot write the file: \(error)"])
    }
  }
}
