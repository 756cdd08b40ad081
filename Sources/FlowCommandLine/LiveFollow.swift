import FlowGraph
import FlowRuntime

/// `flow run --live --follow`: prints each pass of a live run as it completes — the outputs
/// that pass changed among the printed nodes, and the nodes that failed in it — in text
/// (`-- pass N (src emitted)` then `<node>.<port> = <value>` lines, in evaluation order) or as
/// one JSON object per pass and line (`{"pass": N, "source": id, "outputs": {…}, "errors": {…}}`).
///
/// Each pass is printed from the engine as that pass left it: the run takes one emission at a
/// time (`FlowEngine.stopEmissions(after: 1)`, then waits for the engine to settle), so a fast
/// source is slowed to the speed of printing rather than having passes merged or skipped.
struct LiveFollow {
  /// The nodes whose outputs are printed (`nil`: every node, `--all`).
  let shown: Set<String>?
  /// The nodes each live source feeds directly, sources in document order: a pass that ran
  /// one of them took that source's emission (each emission is a pass of its own).
  let sources: [(source: String, fed: Set<String>)]
  let json: Bool
  let write: @Sendable (String) -> Void

  /// The document's live sources (`lines`, `clock`, watches…) and the nodes each feeds.
  static func sources(of document: FlowDocument, registry: NodeKindRegistry) -> [(source: String, fed: Set<String>)] {
    var fed: [String: Set<String>] = [:]
    for node in document.nodes {
      guard case .success(let configured) = registry.configure(node.data), let live = configured.instance.live,
        case .source = live.shape
      else { continue }
      fed[node.id] = []
    }
    guard !fed.isEmpty else { return [] }
    for edge in document.edges where fed[edge.sourceNodeID] != nil { fed[edge.sourceNodeID]?.insert(edge.targetNodeID) }
    return document.nodes.compactMap { node in fed[node.id].map { (node.id, $0) } }
  }

  /// Runs the live run to its end, one emission per step, printing every pass. Stops when the
  /// sources are finished, after `ticks` emissions, or when `stopped()` turns true.
  func run(_ engine: FlowEngine, ticks: Int?, stopped: @Sendable () -> Bool) async {
    await engine.evaluate()
    var pass = 1
    if let report = engine.lastReport { await print(report, pass: pass, engine: engine) }
    var processed = engine.processedEmissionCount
    while !stopped() {
      if let ticks, processed >= ticks { break }
      engine.stopEmissions(after: 1)
      await engine.waitForLiveSources()
      let now = engine.processedEmissionCount
      guard now > processed else { break }  // every source finished
      processed = now
      pass += 1
      if let report = engine.lastReport { await print(report, pass: pass, engine: engine) }
    }
    engine.stopEmissions()
  }

  /// Prints one pass: the printed nodes it ran and did not cut off, in the order they ran.
  func print(_ report: EvaluationReport, pass: Int, engine: FlowEngine) async {
    let cutOff = Set(report.cutOff)
    let failed = report.failed
    let ran = Set(report.ran)
    // The first pass is the start; a later one was made by the emission of a source it reached.
    let source = pass == 1 ? nil : sources.first { $0.source.isEmpty == false && !$0.fed.isDisjoint(with: ran) }?.source
    var outputs: [(node: String, ports: [(port: String, value: Value)])] = []
    for id in report.ran where failed[id] == nil && !cutOff.contains(id) && (shown?.contains(id) ?? true) {
      guard let values = await engine.outputs(of: id), !values.isEmpty else { continue }
      outputs.append((id, values.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }
    // As in `run`'s errors map: every node that failed in the pass, printed or not (the root
    // of an upstream error is rarely a printed node).
    let errors = failed.sorted { $0.key < $1.key }
    if json {
      var object: JSONObject = ["pass": .integer(Int64(pass)), "source": source.map(JSONValue.string) ?? .null]
      object["outputs"] = .object(
        JSONObject(
          outputs.sorted { $0.node < $1.node }.map { node, ports in
            JSONMember(
              key: node, value: .object(JSONObject(ports.map { JSONMember(key: $0.port, value: $0.value.jsonValue) })))
          }))
      object["errors"] = .object(JSONObject(errors.map { JSONMember(key: $0.key, value: .string($0.value)) }))
      write(JSONValue.object(object).serialized(options: [.sortedKeys]) + "\n")
      return
    }
    var text =
      "-- pass \(pass)" + (source.map { " (\($0.controlEscaped) emitted)" } ?? (pass == 1 ? " (start)" : "")) + "\n"
    for (node, ports) in outputs {
      for (port, value) in ports { text += RunResult.line(node: node, port: port, value: value) + "\n" }
    }
    for (node, message) in errors { text += RunResult.errorLine(node: node, message: message) + "\n" }
    write(text)
  }
}
