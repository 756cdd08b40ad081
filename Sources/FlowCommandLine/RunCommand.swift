import Foundation
import FlowGraph
import FlowNodes
import FlowRuntime

/// `flow run FILE`: evaluate a saved graph and print the outputs.
enum RunCommand {
  static let spec = CommandSpec(
    name: "run", summary: "Evaluate a saved graph and print the outputs of its sink nodes.",
    positionals: ["FILE"],
    options: [
      OptionSpec(name: "--set", arity: .repeated, valueName: "NODE.PARAM=JSON",
                 help: "override a param before evaluation (a bare word is a string)"),
      OptionSpec(name: "--node", arity: .repeated, valueName: "ID", help: "print this node's outputs (instead of the sinks)"),
      OptionSpec(name: "--all", arity: .flag, help: "print the outputs of every node"),
      OptionSpec(name: "--format", arity: .single, valueName: "text|json", help: "output format (default text)",
                 choices: ["text", "json"]),
      OptionSpec(name: "--allow-read", arity: .repeated, valueName: "DIR",
                 help: "let file nodes read inside DIR too (default: the document's folder only)"),
      OptionSpec(name: "--allow-write", arity: .repeated, valueName: "DIR",
                 help: "let file nodes write (and read) inside DIR too"),
      OptionSpec(name: "--trace", arity: .single, valueName: "FILE",
                 help: "write a Chrome trace (Perfetto) of the pass: one span per node"),
    ])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure) -> ExitStatus {
    let file = arguments.positionals[0]
    var document = try DocumentLoading.document(file)
    for assignment in arguments.all("--set") { try apply(assignment, to: &document) }
    var evaluator: GraphEvaluator
    let progress = PassProgress()
    var registry = context.registry
    registry.environment.progress = progress
    let tracePath = arguments.value("--trace")
    do {
      // Validation and evaluation share one configuration of each node.
      evaluator = try GraphEvaluator(validating: document, registry: environment(for: file, arguments, registry),
                                     options: EngineOptions(timesEveryNode: tracePath != nil))
    } catch {
      throw CommandFailure.load(.invalid(error), file: file)
    }
    evaluator.progress = progress
    let requested = arguments.all("--node")
    for id in requested where evaluator.outputs(of: id) == nil {
      throw CommandFailure(.usage, ["flow: --node: there is no node '\(id)' in \(file)"])
    }
    let reporter = ProgressReporter(progress: progress, nodeIDs: evaluator.nodeIDs, isTerminal: context.stderrIsTerminal,
                                    write: context.writeDiagnostic)
    reporter.start()
    let report = evaluator.evaluate()
    reporter.stop()
    if let tracePath {
      let trace = TraceWriter.json(TraceWriter.spans(report, document: document, evaluator: evaluator))
      do {
        let absolute = tracePath.hasPrefix("/") ? tracePath : FileAccessPolicy.currentDirectory + "/" + tracePath
        try AtomicFileWriter().write(trace.serializedBytes(options: []), to: absolute)
      } catch {
        throw CommandFailure(.usage, ["flow: --trace: \(error)"])
      }
    }
    let shown: [String]
    if !requested.isEmpty { shown = requested }
    else if arguments.has("--all") { shown = evaluator.liveNodeIDs }
    else { shown = evaluator.sinks }
    var result = RunResult(evaluator: evaluator, nodes: shown)
    result.listsEveryFailure = arguments.has("--all")
    output = arguments.value("--format") == "json" ? result.json() : result.text()
    return result.errors.isEmpty ? .success : .nodeFailed
  }

  /// `registry` with the environment of a run of `file`: paths resolve against the document's
  /// folder, and file nodes may use that folder's tree plus the `--allow-read`/`--allow-write`
  /// folders (relative ones resolve against the working directory).
  static func environment(for file: String, _ arguments: ParsedArguments, _ registry: NodeKindRegistry) -> NodeKindRegistry {
    let workingDirectory = FileAccessPolicy.currentDirectory
    func absolute(_ path: String) -> String {
      let joined = path.hasPrefix("/") ? path : workingDirectory + "/" + path
      return (joined as NSString).standardizingPath
    }
    let folder = file == "-" ? workingDirectory : (absolute(file) as NSString).deletingLastPathComponent
    var registry = registry
    let policy = FileAccessPolicy(readableRoots: [folder] + arguments.all("--allow-read").map(absolute),
                                  writableRoots: [folder] + arguments.all("--allow-write").map(absolute))
    registry.environment = EvaluationEnvironment(documentFolder: folder, fileAccess: policy,
                                                 progress: registry.environment.progress)
    return registry
  }

  /// Applies `NODE.PARAM=JSON` to the document.
  static func apply(_ assignment: String, to document: inout FlowDocument) throws(CommandFailure) {
    guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].lastIndex(of: ".") else {
      throw CommandFailure(.usage, ["flow: --set expects NODE.PARAM=JSON, got '\(assignment)'"])
    }
    let nodeID = String(assignment[..<dot])
    let parameter = String(assignment[assignment.index(after: dot)..<equals])
    let text = String(assignment[assignment.index(after: equals)...])
    guard !nodeID.isEmpty, !parameter.isEmpty else {
      throw CommandFailure(.usage, ["flow: --set expects NODE.PARAM=JSON, got '\(assignment)'"])
    }
    guard let index = document.nodes.firstIndex(where: { $0.id == nodeID }) else {
      throw CommandFailure(.usage, ["flow: --set \(assignment): there is no node '\(nodeID)' in the document"])
    }
    let value = (try? JSONValue.parse(text)) ?? .string(text)
    document.nodes[index].data.params[parameter] = value
  }
}
