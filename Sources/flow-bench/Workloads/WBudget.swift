import FlowGraph
import FlowNodes
import FlowRuntime

/// WBudget: `EngineOptions.tableMemoryBudget` on a pipeline engine. A 200,000-row table →
/// filter → derive → two groupBys (one edited per pass, alternating its aggregate), with no
/// budget, a budget of a quarter of the tables, and a zero budget: time per edit pass, and the
/// bytes the intermediate tables hold (unbounded: all of them; bounded: the peak kept).
enum WBudget {
  struct RowsTable: StaticNodeKind {
    var name: String { "benchRows" }
    var summary: String { "table = rows numbered 0 ..< rows" }
    var inputs: [InputPort] { [InputPort("rows", .number, default: .number(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let count = Int(inputs[0].numberValue ?? 0)
      outputs[0] = .table(
        try Table([
          ("k", .integers((0..<count).map { Int64($0 % 97) })),
          ("x", .numbers((0..<count).map { Double($0 % 1_000) })),
          ("s", .strings((0..<count).map { "row\($0 % 5_000)" }))
        ]))
    }
  }

  static func document(rows: Int) -> FlowDocument {
    func node(_ id: String, _ kind: String, _ params: JSONObject) -> FlowNode {
      FlowNode(id: id, data: NodeSpec(kind: kind, params: params))
    }
    func edge(_ id: String, _ source: String, _ target: String) -> FlowEdge {
      FlowEdge(id: id, sourceNodeID: source, sourceHandleID: nil, targetNodeID: target, targetHandleID: nil)
    }
    return FlowDocument(
      nodes: [
        node("src", "benchRows", ["rows": .integer(Int64(rows))]),
        node("f", "filter", ["where": "x > 100"]),
        node("d", "derive", ["columns": ["y": "x * 2"]]),
        node("g1", "groupBy", ["by": ["k"], "aggregate": ["t": "sum(y)"]]),
        node("g2", "groupBy", ["by": ["s"], "aggregate": ["n": "count()"]])
      ],
      edges: [edge("e1", "src", "f"), edge("e2", "f", "d"), edge("e3", "d", "g1"), edge("e4", "d", "g2")])
  }

  static func run() async throws {
    var registry = NodeKindRegistry.standard
    registry.register(RowsTable())
    let rows = benchSettings.quick ? 50_000 : 200_000
    let document = document(rows: rows)
    let unbounded = try FlowEngine(document: document, registry: registry)
    _ = await unbounded.evaluate()
    var tables = 0
    for id in ["f", "d", "g1", "g2"] {
      for value in (await unbounded.outputs(of: id) ?? [:]).values {
        tables += TableMemoryStatistics.estimatedBytes(of: value)
      }
    }
    unbounded.shutDown()
    var reference: Value?
    for (label, budget) in [("no budget", nil), ("budget = 1/4 of the tables", tables / 4), ("budget 0", 0)]
      as [(String, Int?)]
    {
      var options = EngineOptions()
      options.tableMemoryBudget = budget
      let engine = try FlowEngine(document: document, registry: registry, options: options)
      _ = await engine.evaluate()
      var ran = 0
      let stat = try await Harness.measure(inner: 10) { iteration in
        let aggregate: JSONValue = iteration % 2 == 0 ? ["t": "sum(x)"] : ["t": "sum(y)"]
        try engine.store.updateNode(
          FlowNode(id: "g1", data: NodeSpec(kind: "groupBy", params: ["by": ["k"], "aggregate": aggregate])))
        ran = await engine.evaluate()?.evaluationCount ?? -1
      }
      let value = await engine.outputs(of: "g1")?["table"]
      if reference == nil { reference = value }
      Harness.check(value == reference && ran == 1, "WBudget \(label): ran \(ran), same value \(value == reference)")
      let stats = await engine.tableMemory
      let held = stats.map { $0.peakHeldBytes } ?? tables
      Harness.emit(
        workload: "WBudget", metric: "edit g1, pass (\(label))", stat, nodes: ran, variant: "FlowEngine", inner: 10,
        note: "rows \(rows)",
        extra: [
          "held_bytes": "\(held)", "table_bytes": "\(tables)",
          "evictions": "\(stats?.evictions ?? 0)", "recomputations": "\(stats?.recomputations ?? 0)"
        ])
      engine.shutDown()
    }
  }
}
