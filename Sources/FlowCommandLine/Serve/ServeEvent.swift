import FlowLayout
import FlowGraph
import FlowRuntime

/// The JSON of the server-sent events and of `/state.json`.
///
/// A pass event: `{"revision", "structure", "ran", "fromCache" (only when some node was served
/// from `--cache`), "cutOff", "failed": {id: message},
/// "pending": [id], "notNeeded": [id], "values": {id: {port: text}}, "params": {id: {param: JSON}} (of the nodes
/// that ran: an edited node always runs),
/// "emissions": {id: count}, "durationMs"}` — values only for the nodes that ran or were served (all nodes in
/// the `"initial": true` event a stream opens with); failures, pending and not-needed nodes
/// (dimmed: they stand only behind lazy inputs no node needed) all of them.
/// Value texts are one line (`GraphPicture.summary`), at most `valueTextLimit` characters.
enum ServeEvent {
  static let valueTextLimit = 200

  static func pass(_ report: EvaluationReport, snapshot: GraphEvaluator, state: ServeSession.State, params: JSONObject)
    -> JSONValue
  {
    var object = common(snapshot: snapshot, state: state, params: params, valuesOf: report.ran + report.fromCache)
    object["ran"] = .array(report.ran.map { .string($0) })
    if !report.fromCache.isEmpty { object["fromCache"] = .array(report.fromCache.map { .string($0) }) }
    object["cutOff"] = .array(report.cutOff.map { .string($0) })
    object["revision"] = .integer(Int64(report.revision))
    let parts = report.duration.components
    object["durationMs"] = .number(Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15)
    return .object(object)
  }

  /// What a stream opens with: every value, failure and pending node, every node's params.
  static func initial(snapshot: GraphEvaluator?, state: ServeSession.State, params: JSONObject) -> JSONValue {
    guard let snapshot else {
      return .object([
        "initial": true, "revision": .integer(Int64(state.revision)), "structure": .integer(Int64(state.structure))
      ])
    }
    let ids = snapshot.presentNodeIDs
    var object = common(snapshot: snapshot, state: state, params: params, valuesOf: ids)
    object["initial"] = true
    object["ran"] = .array([])
    object["cutOff"] = .array([])
    object["revision"] = .integer(Int64(state.revision))
    return .object(object)
  }

  static func common(snapshot: GraphEvaluator, state: ServeSession.State, params: JSONObject, valuesOf ids: [String])
    -> JSONObject
  {
    var values: [JSONMember] = []
    for id in ids {
      guard snapshot.failure(of: id) == nil, let ports = snapshot.portValues(of: id), !ports.isEmpty else { continue }
      values.append(
        JSONMember(
          key: id, value: .object(JSONObject(ports.map { JSONMember(key: $0.port, value: .string(text($0.value))) }))))
    }
    let failed = snapshot.failures.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .string($0.value)) }
    let pending = snapshot.presentNodeIDs.filter { snapshot.isPending($0) }.map { JSONValue.string($0) }
    // As `flow render --values` dims them: behind lazy inputs no node needed in the last pass.
    let notNeeded = snapshot.presentNodeIDs.filter { snapshot.isNotNeeded($0) }.map { JSONValue.string($0) }
    let emissions = snapshot.sourceEmissionCounts.sorted { $0.key < $1.key }.map {
      JSONMember(key: $0.key, value: .integer(Int64($0.value)))
    }
    return [
      "structure": .integer(Int64(state.structure)),
      "values": .object(JSONObject(values)),
      "failed": .object(JSONObject(failed)),
      "pending": .array(pending),
      "notNeeded": .array(notNeeded),
      "params": .object(params),
      "emissions": .object(JSONObject(emissions))
    ]
  }

  /// A value in one line, bounded.
  static func text(_ value: Value) -> String {
    let text = GraphPicture.summary(of: value)
    return text.count <= valueTextLimit ? text : String(text.prefix(valueTextLimit - 1)) + "…"
  }

  /// `run --format json`'s object for every node, plus `revision`, `pending` and the last
  /// pass's `report`; a table is summarized (`ServeTables.json`), so the object never grows
  /// with the data.
  static func state(snapshot: GraphEvaluator?, state: ServeSession.State) -> JSONValue {
    guard let snapshot else {
      return .object([
        "errors": .object(JSONObject()), "outputs": .object(JSONObject()), "revision": .integer(Int64(state.revision))
      ])
    }
    let result = RunResult(evaluator: snapshot, nodes: snapshot.presentNodeIDs)
    let outputs = JSONObject(
      result.outputs.map { node, ports in
        JSONMember(
          key: node,
          value: .object(JSONObject(ports.map { JSONMember(key: $0.port, value: ServeTables.json($0.value)) })))
      })
    let errors = JSONObject(
      result.errors.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .string($0.value)) })
    var object: JSONObject = ["errors": .object(errors), "outputs": .object(outputs)]
    object["pending"] = .array(snapshot.presentNodeIDs.filter { snapshot.isPending($0) }.map { .string($0) })
    if let report = state.lastReport { object["report"] = RunReport(report).json() }
    object["revision"] = .integer(Int64(state.revision))
    return .object(object)
  }
}
