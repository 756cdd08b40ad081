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
      OptionSpec(
        name: "--set", arity: .repeated, valueName: "NODE.PARAM=JSON",
        help: "override a param before evaluation (a bare word is a string)"),
      OptionSpec(
        name: "--node", arity: .repeated, valueName: "ID", help: "print this node's outputs (instead of the sinks)"),
      OptionSpec(name: "--all", arity: .flag, help: "print the outputs of every node"),
      OptionSpec(
        name: "--format", arity: .single, valueName: "text|json|csv",
        help: "output format (default text; csv: the one printed table)", choices: ["text", "json", "csv"]),
      OptionSpec(name: "--live", arity: .flag, help: "keep evaluating as live nodes emit, until every source finished"),
      OptionSpec(
        name: "--follow", arity: .flag,
        help: "with --live: print each pass as it completes (text, or one JSON object per line)"),
      OptionSpec(name: "--ticks", arity: .single, valueName: "N", help: "with --live: stop after N emissions"),
      OptionSpec(
        name: "--save", arity: .single, valueName: "FILE", help: "with --live: write the document with its live state"),
      OptionSpec(
        name: "--allow-read", arity: .repeated, valueName: "DIR",
        help: "let file nodes read inside DIR too (default: the document's folder only)"),
      OptionSpec(
        name: "--allow-write", arity: .repeated, valueName: "DIR",
        help: "let file nodes write (and read) inside DIR too"),
      OptionSpec(
        name: "--trace", arity: .single, valueName: "FILE",
        help: "write a Chrome trace (Perfetto) of the pass: one span per node"),
      OptionSpec(
        name: "--report", arity: .flag, help: "also print what the pass did (ran, cut off, failed, durations)"),
      OptionSpec(
        name: "--timeout", arity: .single, valueName: "DURATION",
        help: "stop the run after this long (seconds, or 500ms, 30s, 5m, 1h); exit status 1")
    ] + RunTableOptions.specs + StreamingOptions.specs + RunLimitOptions.specs + RunCacheOptions.specs
      + TestWriteBarrierOption.specs,
    positionalHelp: ["the saved graph (- reads standard input)"])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    let file = arguments.positionals[0]
    let limits = try RunLimitOptions.limits(arguments)
    let tableOptions = try RunTableOptions(arguments)
    try RunLimitOptions.applyProcessWide(arguments)
    let workers = try RunLimitOptions.workers(arguments)
    var document = try DocumentLoading.document(file)
    // `--set` of a node the document holds applies before the expansion; of an inlined node
    // (`trip/loan/rate.value`), after it.
    var innerAssignments: [String] = []
    // The document's own ids matter only where subgraphs are inlined (else no set is built).
    let outerIDs = document.subgraphs.isEmpty && document.imports.isEmpty ? [] : Set(document.nodes.map(\.id))
    for assignment in arguments.all("--set") {
      if let target = setTarget(assignment), !outerIDs.contains(target), target.contains("/"),
        !document.subgraphs.isEmpty
          || !document.imports.isEmpty
      {
        innerAssignments.append(assignment)
      } else {
        try apply(assignment, to: &document, context: context)
      }
    }
    let original = document
    let live = arguments.has("--live")
    let ticks = try LiveRun.ticks(arguments)
    if !live && (ticks != nil || arguments.value("--save") != nil || arguments.has("--follow")) {
      throw CommandFailure(.usage, ["flow: --ticks, --save and --follow need --live"])
    }
    // Columns on demand: each reader makes only the columns the rest of the graph reads.
    if !live {
      let nodes = arguments.all("--node")
      document = ColumnDemand.applied(
        to: document, registry: context.registry,
        observed: arguments.has("--all") ? .everything : nodes.isEmpty ? .sinks : .nodes(Set(nodes)))
    }
    var evaluator: GraphEvaluator
    let progress = PassProgress()
    var registry = context.registry
    registry.environment.progress = progress
    registry.environment.limits = limits
    registry.environment.workers = workers
    TestWriteBarrierOption.apply(arguments, to: &registry.environment)
    let tracePath = arguments.value("--trace")
    var configured = try environment(for: file, arguments, registry)
    let expanded = try DocumentLoading.expand(document, file: file, registry: configured)
    document = expanded.flat
    for assignment in innerAssignments { try apply(assignment, to: &document, context: context) }
    // The run cache: served nodes become constants, so what only they need does not run.
    var cachePlan: RunCachePlan?
    if let cache = try RunCacheOptions.cache(arguments, registry: configured, context: context) {
      let requested = arguments.all("--node")
      let plan = RunCachePlan(
        document: document, registry: configured,
        requested: !requested.isEmpty ? requested : arguments.has("--all") ? document.nodes.map(\.id) : nil,
        printable: { !expanded.hasInstances || outerIDs.contains($0) }, cache: cache.store)
      document = plan.document
      configured = plan.registry
      cachePlan = plan
    }
    let timeout = try timeoutArgument(arguments)
    // Bounded memory: the chains whose intermediate tables nobody sees run morsel by morsel.
    let streaming = try StreamingOptions.plan(document, registry: configured, arguments)
    do {
      // Validation and evaluation share one configuration of each node. Demand-driven: only
      // what the printed nodes depend on is computed.
      var options = EngineOptions(timesEveryNode: tracePath != nil || arguments.has("--report"), demandDriven: true)
      // Only the printed nodes are read after the pass (unless a trace counts rows), so every
      // other table goes once its readers have run (the cache keeps it as it settles).
      options.releasesConsumedTables = !live && tracePath == nil
      evaluator = try GraphEvaluator(validating: document, registry: configured, options: options)
    } catch {
      throw CommandFailure.load(
        .invalid(DocumentLoading.withSuggestions(error, document: document, registry: context.registry)), file: file)
    }
    evaluator.progress = progress
    streaming?.install(in: &evaluator)
    let requested = arguments.all("--node")
    for id in requested where !evaluator.presentNodeIDs.contains(id) {
      let hint = Suggestion.hint(for: id, among: document.nodes.map(\.id))
      throw CommandFailure(.usage, ["flow: --node: there is no node '\(id)' in \(file)\(hint)"])
    }
    let shown: [String]
    if let cachePlan {
      shown = cachePlan.shown
    } else if !requested.isEmpty {
      shown = requested
    } else if arguments.has("--all") {
      shown = evaluator.presentNodeIDs
    } else if expanded.hasInstances {
      shown = evaluator.sinks.filter(outerIDs.contains)  // inner nodes print when asked for
    } else {
      shown = evaluator.sinks
    }
    var passReport: EvaluationReport?
    if live {
      let follow =
        arguments.has("--follow")
        ? LiveFollow(
          shown: arguments.has("--all") ? nil : Set(shown),
          sources: LiveFollow.sources(of: document, registry: configured),
          json: arguments.value("--format") == "json", write: context.writeOutputNow)
        : nil
      let outcome = try LiveRun.run(
        document, shown: shown, registry: configured, ticks: ticks, timeout: timeout,
        saves: arguments.value("--save") != nil, follow: follow, context: context)
      evaluator = outcome.evaluator
      if let path = arguments.value("--save"), var saved = outcome.document {
        if expanded.hasInstances {
          // The document as written, with the live state of its (inlined) nodes.
          let state = saved.liveState
          saved = original
          saved.liveState = state
        }
        try LiveRun.save(saved, to: path)
      }
      if follow != nil {
        // Every pass was printed as it completed; the status says whether a printed node failed.
        let failedShown = shown.contains { evaluator.failures[$0] != nil }
        return failedShown ? .nodeFailed : .success
      }
    } else {
      evaluator.observe(shown)
      // Tables are kept as their nodes settle, in the background; no entry is left half written.
      let keeper = RunCacheOptions.keeper(cachePlan, shown: shown, streaming: streaming)
      defer { keeper?.finish() }
      evaluator.cacheKeeper = keeper
      let reporter = ProgressReporter(
        progress: progress, nodeIDs: evaluator.nodeIDs, isTerminal: context.stderrIsTerminal,
        write: context.writeDiagnostic)
      let nodeIDs = evaluator.nodeIDs
      let running: @Sendable () -> String = {
        let index = progress.runningNode.load(ordering: .relaxed)
        return nodeIDs.indices.contains(index) ? nodeIDs[index] : ""
      }
      let interruption = RunInterruption(progress: progress, timeout: timeout, describeRunning: running)
      reporter.start()
      let report = evaluator.evaluate(shouldStop: interruption.shouldStop)
      reporter.stop()
      interruption.cancel()
      if let failure = interruption.failure() { throw failure }
      passReport = report
      if let cachePlan {
        let inner = streaming?.chains.flatMap { $0.streamedDurations == nil ? [] : $0.nodeIDs.dropLast() } ?? []
        let taken = keeper?.finish().taken ?? []
        cachePlan.keep(from: evaluator, report: report, shown: shown, skipping: taken.union(inner))
      }
      if let tracePath {
        let trace = TraceWriter.json(
          TraceWriter.spans(report, document: document, evaluator: evaluator),
          notNeeded: report.notNeeded)
        do {
          try AtomicFileWriter().write(trace.serializedBytes(options: []), to: FileAccessPolicy.absolutePath(tracePath))
        } catch {
          throw CommandFailure(.usage, ["flow: --trace: \(error)"])
        }
      }
    }
    if !live {
      noteWaitingNodes(shown, evaluator: evaluator, document: document, registry: configured, context: context)
    }
    var result = RunResult(evaluator: evaluator, nodes: shown)
    result.listsEveryFailure = arguments.has("--all")
    result.tableRows = tableOptions.head
    result.schemaOnly = tableOptions.schemaOnly
    if tableOptions.csv {
      output = try RunTableOptions.csv(result)
      return .success
    }
    let runReport =
      arguments.has("--report")
      ? passReport.map { RunReport($0, streaming: streaming, fromCache: cachePlan?.fromCache ?? []) } : nil
    if arguments.value("--format") == "json" {
      // JSONValue is nil-literal expressible
      output = result.json(report: runReport.map { $0.json() } ?? JSONValue?.none)
    } else {
      output = result.text() + (runReport?.text() ?? "")
    }
    return result.errors.isEmpty ? .success : .nodeFailed
  }

  /// `registry` with the folders of a run of `file` (the rest of its environment kept): paths
  /// resolve against the document's folder, and file nodes may use that folder's tree plus the `--allow-read`/`--allow-write`
  /// folders (relative ones resolve against the working directory; each must be an existing
  /// folder, else a usage error).
  static func environment(
    for file: String, _ arguments: ParsedArguments,
    _ registry: NodeKindRegistry
  ) throws(CommandFailure) -> NodeKindRegistry {
    let workingDirectory = FileAccessPolicy.currentDirectory
    func absolute(_ path: String) -> String { (FileAccessPolicy.absolutePath(path) as NSString).standardizingPath }
    func folders(_ option: String) throws(CommandFailure) -> [String] {
      var result: [String] = []
      for path in arguments.all(option) {
        var isFolder: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        else {
          throw CommandFailure(.usage, ["flow: \(option) expects an existing folder, got '\(path)'"])
        }
        result.append(absolute(path))
      }
      return result
    }
    let folder = file == "-" ? workingDirectory : (absolute(file) as NSString).deletingLastPathComponent
    var registry = registry
    let policy = FileAccessPolicy(
      readableRoots: [folder] + (try folders("--allow-read")),
      writableRoots: [folder] + (try folders("--allow-write")))
    registry.environment.documentFolder = folder
    registry.environment.fileAccess = policy
    return registry
  }

  /// Without `--live`, printed nodes that wait for a live source's first emission print
  /// nothing; says so on stderr, naming them (at most 10) and the sources they wait for.
  static func noteWaitingNodes(
    _ shown: [String], evaluator: GraphEvaluator, document: FlowDocument,
    registry: NodeKindRegistry, context: CommandContext
  ) {
    guard evaluator.hasPendingNodes else { return }
    let waiting = shown.filter { evaluator.isPending($0) }
    guard !waiting.isEmpty else { return }
    // The sources upstream of the waiting nodes: one backward search from all of them, O(n + m).
    let liveSources = Set(LiveFollow.sources(of: document, registry: registry).map(\.source))
    var feeders: [String: [String]] = [:]
    for edge in document.edges { feeders[edge.targetNodeID, default: []].append(edge.sourceNodeID) }
    var seen = Set(waiting), stack = waiting, found = Set<String>()
    while let id = stack.popLast() {
      if liveSources.contains(id) { found.insert(id) }
      for feeder in feeders[id] ?? [] where seen.insert(feeder).inserted { stack.append(feeder) }
    }
    func list(_ ids: [String]) -> String {
      let quoted = ids.prefix(10).map { "'\($0)'" }
      let more = ids.count > 10 ? " and \(ids.count - 10) more" : ""
      return quoted.count == 1
        ? quoted[0] + more
        : quoted.dropLast().joined(separator: ", ")
          + (more.isEmpty ? " and \(quoted.last!)" : ", \(quoted.last!)\(more)")
    }
    let sources = found.sorted()
    let waits = waiting.count == 1 ? "waits" : "wait"
    let what = sources.isEmpty ? "live sources" : "the live source\(sources.count == 1 ? "" : "s") \(list(sources))"
    context.warn("flow: \(list(waiting)) \(waits) for \(what) and printed nothing; flow run --live runs them")
  }

  /// Parses `--timeout`.
  static func timeoutArgument(_ arguments: ParsedArguments) throws(CommandFailure) -> (limit: Duration, text: String)? {
    guard let text = arguments.value("--timeout") else { return nil }
    guard let limit = RunInterruption.duration(text) else {
      throw CommandFailure(
        .usage, ["flow: --timeout expects a duration > 0 (seconds, or 500ms, 30s, 5m, 1h), got '\(text)'"])
    }
    return (limit, text)
  }

  /// The node id of a `NODE.PARAM=JSON` argument, if it has that shape.
  static func setTarget(_ assignment: String) -> String? {
    guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].lastIndex(of: ".") else {
      return nil
    }
    return String(assignment[..<dot])
  }

  /// Applies `NODE.PARAM=JSON` to the document. A value that is not JSON is a string. The
  /// value is checked against the kind here, so a bad one is a usage error naming the argument
  /// (never blamed on the file); setting an input that an edge feeds warns on stderr.
  static func apply(_ assignment: String, to document: inout FlowDocument, context: CommandContext)
    throws(CommandFailure)
  {
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
      let hint = Suggestion.hint(for: nodeID, among: document.nodes.map(\.id))
      throw CommandFailure(.usage, ["flow: --set \(assignment): there is no node '\(nodeID)' in the document\(hint)"])
    }
    let value = (try? JSONValue.parse(text)) ?? .string(text)
    let before = context.registry.resolve(document.nodes[index].data)
    document.nodes[index].data.params[parameter] = value
    let node = document.nodes[index]
    switch context.registry.resolve(node.data) {
    case .invalidParameters(let problems):
      var earlier: [ParameterProblem] = []
      if case .invalidParameters(let problems) = before { earlier = problems }
      let introduced = problems.filter { !earlier.contains($0) }
      if let problem = introduced.first(where: { $0.parameter == parameter }) ?? introduced.first {
        throw CommandFailure(
          .usage,
          [
            "flow: --set \(assignment): node '\(nodeID)' (\(node.data.kind)): param '\(problem.parameter)' \(problem.reason)"
          ])
      }
    case .resolved(let signature):
      guard let port = signature.inputIndex(named: parameter) else { break }
      let fed = document.edges.contains { edge in
        edge.targetNodeID == nodeID
          && (edge.targetHandleID ?? (signature.inputs.count == 1 ? signature.inputs[0].name : nil)) == parameter
      }
      if fed {
        context.warn(
          "flow: warning: --set \(assignment): input '\(signature.inputs[port].name)' of node '\(nodeID)' is connected; the edge's value wins"
        )
      }
    case .unknownKind:
      break  // reported by validation, naming the kind
    }
  }
}
