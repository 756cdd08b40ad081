import FlowGraph
import FlowRuntime

/// Chrome trace event JSON of one pass (`flow run --trace FILE`; opens in Perfetto or
/// chrome://tracing): one complete event (`"ph": "X"`) per node that ran, named by the node id,
/// with its kind as the category, start and duration in microseconds, and `rowsIn`/`rowsOut`
/// for nodes that take or make tables.
///
/// Lanes (`tid`) are assigned so spans that overlap in time sit on different lanes (greedy
/// interval packing, in start order): lane 1 holds the inline nodes and the first of each set
/// of concurrent ones.
enum TraceWriter {
  /// One span of the trace.
  struct Span: Equatable {
    var node: String
    var kind: String
    var start: Duration
    var duration: Duration
    var rowsIn: Int?
    var rowsOut: Int?
  }

  /// The spans of the nodes `report` timed, in start order, with table sizes from `evaluator`.
  static func spans(_ report: EvaluationReport, document: FlowDocument, evaluator: GraphEvaluator) -> [Span] {
    let starts = report.starts, durations = report.durations
    var kinds: [String: String] = [:]
    for node in document.nodes { kinds[node.id] = node.data.kind }
    var incoming: [String: [(node: String, port: String?)]] = [:]
    for edge in document.edges {
      incoming[edge.targetNodeID, default: []].append((edge.sourceNodeID, edge.sourceHandleID))
    }
    func rows(_ value: Value?) -> Int? { value?.tableValue?.rowCount }
    var spans: [Span] = []
    for node in report.ran {
      guard let start = starts[node], let duration = durations[node] else { continue }
      let outputs = evaluator.outputs(of: node) ?? [:]
      let rowsOut = outputs.values.compactMap(rows).reduce(nil as Int?) { ($0 ?? 0) + $1 }
      var rowsIn: Int?
      for source in incoming[node] ?? [] {
        let ports = evaluator.outputs(of: source.node) ?? [:]
        let value = source.port.flatMap { ports[$0] } ?? (ports.count == 1 ? ports.values.first : nil)
        if let count = rows(value) { rowsIn = (rowsIn ?? 0) + count }
      }
      spans.append(
        Span(node: node, kind: kinds[node] ?? "", start: start, duration: duration, rowsIn: rowsIn, rowsOut: rowsOut))
    }
    return spans.sorted { ($0.start, $0.node) < ($1.start, $1.node) }
  }

  /// The trace JSON of `spans`, and an instant event at the start listing the nodes the pass
  /// left out as not needed (lazy inputs), if any.
  static func json(_ spans: [Span], notNeeded: [String] = []) -> JSONValue {
    var laneEnds: [Duration] = []
    var events: [JSONValue] = []
    for span in spans {
      let lane = laneEnds.firstIndex { $0 <= span.start } ?? laneEnds.count
      if lane == laneEnds.count { laneEnds.append(.zero) }
      laneEnds[lane] = span.start + span.duration
      var args = JSONObject()
      if let rowsIn = span.rowsIn { args["rowsIn"] = .number(Double(rowsIn)) }
      if let rowsOut = span.rowsOut { args["rowsOut"] = .number(Double(rowsOut)) }
      events.append(
        .object([
          "name": .string(span.node), "cat": .string(span.kind), "ph": "X",
          "ts": .number(microseconds(span.start)), "dur": .number(microseconds(span.duration)),
          "pid": 1, "tid": .number(Double(lane + 1)), "args": .object(args)
        ]))
    }
    if !notNeeded.isEmpty {
      events.append(
        .object([
          "name": "not needed", "cat": "lazy", "ph": "i", "s": "g", "ts": 0, "pid": 1, "tid": 1,
          "args": .object(["nodes": .array(notNeeded.sorted().map(JSONValue.string))])
        ]))
    }
    return .object(["traceEvents": .array(events), "displayTimeUnit": "ms"])
  }

  static func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e6 + Double(attoseconds) / 1e12).rounded(toPlaces: 3)
  }
}

extension Double {
  func rounded(toPlaces places: Int) -> Double {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return (self * scale).rounded() / scale
  }
}
