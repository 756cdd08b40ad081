import FlowGraph
import FlowNodes
import FlowRuntime

/// `flow run --report`: what the pass did — the nodes that ran (in order), were cut off,
/// failed (by their own error) or were skipped downstream of a failure, with durations.
struct RunReport {
  var ran: [String]
  var cutOff: [String]
  /// Nodes whose own evaluation failed, with the message.
  var failed: [(id: String, message: String)]
  /// Nodes that did not run because an input failed, with `upstream error from <root>`.
  var skipped: [(id: String, message: String)]
  var durations: [String: Duration]
  var total: Duration
  /// The nodes of the chains that ran morsel by morsel (`StreamingPlan`), chain by chain.
  var streamed: [String] = []
  /// Nodes standing only behind lazy inputs no node needed: they did not run.
  var notNeeded: [String] = []
  /// Lazy nodes (`fallback`) that caught an input's failure, with its message.
  var caught: [(id: String, message: String)] = []
  /// Nodes the run cache served (`flow run --cache`): they did not run.
  var fromCache: [String] = []

  /// The report of a pass; a streamed chain's nodes get their own times (the engine timed the
  /// head running the whole chain).
  init(_ report: EvaluationReport, streaming: StreamingPlan? = nil, fromCache: [String] = []) {
    // A served node is a constant in the pass: it is listed as from the cache, not as run.
    let served = Set(fromCache)
    self.fromCache = fromCache
    ran = served.isEmpty ? report.ran : report.ran.filter { !served.contains($0) }
    cutOff = report.cutOff
    let failures = report.failed
    let ranSet = Set(ran)
    failed = ran.compactMap { id in failures[id].map { (id, $0) } }
    skipped = failures.keys.filter { !ranSet.contains($0) }.sorted().map { ($0, failures[$0]!) }
    durations = report.durations
    for id in fromCache { durations[id] = nil }
    total = report.duration
    notNeeded = report.notNeeded.sorted()
    caught = report.caught.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    if let streaming {
      durations.merge(streaming.streamedDurations) { $1 }
      streamed = streaming.streamedNodeIDs
    }
  }

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  }

  static func format(_ duration: Duration) -> String {
    let ms = milliseconds(duration)
    return (ms * 1_000).rounded() / 1_000 == 0 && ms > 0 ? "<0.001 ms" : "\((ms * 1_000).rounded() / 1_000) ms"
  }

  /// The text block printed after the outputs (ids and messages with control characters
  /// escaped, `String.controlEscaped`).
  func text() -> String {
    func list(_ items: [String]) -> String { items.isEmpty ? "" : " " + items.joined(separator: ", ") }
    func id(_ id: String) -> String { id.controlEscaped }
    var lines = ["report:"]
    lines.append(
      "  ran (\(ran.count), in order):"
        + list(ran.map { ran in durations[ran].map { "\(id(ran)) \(Self.format($0))" } ?? id(ran) }))
    lines.append("  cut off (\(cutOff.count)):" + list(cutOff.map(id)))
    lines.append("  failed (\(failed.count)):" + list(failed.map { "\(id($0.id)) (\($0.message.controlEscaped))" }))
    lines.append(
      "  skipped downstream (\(skipped.count)):" + list(skipped.map { "\(id($0.id)) (\($0.message.controlEscaped))" }))
    if !streamed.isEmpty { lines.append("  streamed (\(streamed.count)):" + list(streamed.map(id))) }
    if !fromCache.isEmpty { lines.append("  from cache (\(fromCache.count)):" + list(fromCache.map(id))) }
    if !notNeeded.isEmpty { lines.append("  not needed (\(notNeeded.count)):" + list(notNeeded.map(id))) }
    if !caught.isEmpty {
      lines.append("  caught (\(caught.count)):" + list(caught.map { "\(id($0.id)) (\($0.message.controlEscaped))" }))
    }
    lines.append("  pass: \(Self.format(total))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The `"report"` object of `--format json`; durations in milliseconds.
  func json() -> JSONValue {
    var object: JSONObject = [
      "ran": .array(ran.map(JSONValue.string)),
      "cutOff": .array(cutOff.map(JSONValue.string)),
      "failed": .object(JSONObject(failed.map { JSONMember(key: $0.id, value: .string($0.message)) })),
      "skipped": .object(JSONObject(skipped.map { JSONMember(key: $0.id, value: .string($0.message)) })),
      "durations": .object(
        JSONObject(
          ran.compactMap { id in
            durations[id].map { JSONMember(key: id, value: .number(Self.milliseconds($0))) }
          })),
      "duration": .number(Self.milliseconds(total))
    ]
    if !streamed.isEmpty { object["streamed"] = .array(streamed.map(JSONValue.string)) }
    if !fromCache.isEmpty { object["fromCache"] = .array(fromCache.map(JSONValue.string)) }
    if !notNeeded.isEmpty { object["notNeeded"] = .array(notNeeded.map(JSONValue.string)) }
    if !caught.isEmpty {
      object["caught"] = .object(JSONObject(caught.map { JSONMember(key: $0.id, value: .string($0.message)) }))
    }
    return .object(object)
  }
}
