import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `EngineOptions.releasesConsumedTables` (what `flow run` uses): a table read by its last
/// consumer is released, which changes no observed value — in the pass that releases and in
/// later passes that must compute a released node again.
@Suite struct ReleaseConsumedTablesTests {
  /// Sources `s0…s2` (a table input each), then random `filter`, `derive`, `sort`, `limit` and
  /// `union` nodes over earlier ones (every table has the columns carrier and delay), some
  /// read by `rowCount`; a random half of the nodes observed.
  static func document(_ random: inout SeededRandom) -> (FlowDocument, observed: [String]) {
    var nodes: [FlowNode] = (0..<3).map { .node("s\($0)", "tableInput") }
    var edges: [FlowEdge] = []
    var tables = nodes.map(\.id)
    func pick() -> String { tables[Int(random.next() % UInt64(tables.count))] }
    for index in 0..<(6 + Int(random.next() % 14)) {
      let id = "n\(index)"
      let parameter = Int(random.next() % 40) - 10
      switch random.next() % 6 {
      case 0: nodes.append(.node(id, "filter", params: ["where": .string("delay > \(parameter)")]))
      case 1: nodes.append(.node(id, "derive", params: ["columns": ["delay": .string("delay + \(parameter)")]]))
      case 2: nodes.append(.node(id, "sort", params: ["by": ["-delay"]]))
      case 3: nodes.append(.node(id, "limit", params: ["count": .integer(Int64(abs(parameter)))]))
      case 4:
        nodes.append(.node(id, "union"))
        edges.append(.edge("e\(edges.count)", "\(pick()).table", "\(id).b"))
        edges.append(.edge("e\(edges.count)", "\(pick()).table", "\(id).a"))
        tables.append(id)
        continue
      default:
        nodes.append(.node(id, "rowCount"))
        edges.append(.edge("e\(edges.count)", "\(pick()).table", "\(id).table"))
        continue
      }
      edges.append(.edge("e\(edges.count)", "\(pick()).table", "\(id).table"))
      tables.append(id)
    }
    let observed = nodes.map(\.id).filter { _ in random.next() % 2 == 0 } + [nodes.last!.id]
    return (FlowDocument(nodes: nodes, edges: edges), observed)
  }

  static func table(_ random: inout SeededRandom) throws -> Value {
    let rows = Int(random.next() % 30)
    let carriers = (0..<rows).map { _ in Cell.string(["AA", "UA", "DL"][Int(random.next() % 3)]) }
    let delays = (0..<rows).map { _ in random.next() % 7 == 0 ? Cell.null : .integer(Int64(random.next() % 60) - 10) }
    return .table(try Table([CellColumn("carrier", .string, carriers), CellColumn("delay", .integer, delays)]))
  }

  @Test(arguments: 0..<300) func observedValuesAreThoseOfAnEvaluatorThatKeepsEverything(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let (document, observed) = Self.document(&random)
    var options = EngineOptions(demandDriven: true)
    options.releasesConsumedTables = true
    var releasing = try GraphEvaluator(validating: document, registry: FedPipeline.registry, options: options)
    var keeping = try GraphEvaluator(
      validating: document, registry: FedPipeline.registry, options: EngineOptions(demandDriven: true))
    releasing.observe(observed)
    keeping.observe(observed)
    for pass in 0..<4 {
      // The first pass fills every source; later ones change one.
      for source in pass == 0 ? [0, 1, 2] : [Int(random.next() % 3)] {
        let value = try Self.table(&random)
        try releasing.setUnconnectedInput(#require(releasing.input("s\(source)", "table")), to: value)
        try keeping.setUnconnectedInput(#require(keeping.input("s\(source)", "table")), to: value)
      }
      releasing.evaluate()
      keeping.evaluate()
      for id in observed {
        #expect(releasing.outputs(of: id) == keeping.outputs(of: id), "seed \(seed) pass \(pass): node \(id)")
        #expect(releasing.failure(of: id) == keeping.failure(of: id), "seed \(seed) pass \(pass): node \(id)")
      }
    }
  }

  /// The random graphs release tables: in 50 of them, many unobserved nodes hold none after
  /// the first pass.
  @Test func theRandomGraphsReleaseTables() throws {
    var released = 0
    for seed in UInt64(0)..<50 {
      var random = SeededRandom(seed: seed)
      let (document, observed) = Self.document(&random)
      var options = EngineOptions(demandDriven: true)
      options.releasesConsumedTables = true
      var evaluator = try GraphEvaluator(validating: document, registry: FedPipeline.registry, options: options)
      evaluator.observe(observed)
      for source in 0..<3 {
        try evaluator.setUnconnectedInput(#require(evaluator.input("s\(source)", "table")), to: try Self.table(&random))
      }
      evaluator.evaluate()
      released +=
        document.nodes.filter { !observed.contains($0.id) && evaluator.outputs(of: $0.id)?["table"] == .null }.count
    }
    #expect(released > 100, "\(released) tables released")
  }

  /// A chain `s0 → n0 → n1 → n2` with only `n2` observed: `s0`, `n0` and `n1` give their
  /// tables up in the pass; a later pass that needs them computes them again.
  @Test func aChainKeepsOnlyItsObservedEnd() throws {
    let document = FlowDocument(
      nodes: [
        .node("s0", "tableInput"), .node("n0", "filter", params: ["where": "delay > 0"]),
        .node("n1", "derive", params: ["columns": ["delay": "delay * 2"]]), .node("n2", "rowCount")
      ],
      edges: [
        .edge("e0", "s0.table", "n0.table"), .edge("e1", "n0.table", "n1.table"), .edge("e2", "n1.table", "n2.table")
      ])
    var options = EngineOptions(demandDriven: true)
    options.releasesConsumedTables = true
    var evaluator = try GraphEvaluator(validating: document, registry: FedPipeline.registry, options: options)
    evaluator.observe(["n2"])
    try evaluator.setUnconnectedInput(
      #require(evaluator.input("s0", "table")), to: .table(try Table(FedPipeline.flights)))
    #expect(Set(evaluator.evaluate().ran) == ["s0", "n0", "n1", "n2"])
    #expect(evaluator.outputs(of: "n2") == ["count": .integer(3)])
    for id in ["s0", "n0", "n1"] { #expect(evaluator.outputs(of: id)?["table"] == .null, "\(id) gave its table up") }
    evaluator.observe(["n1"])
    // Released nodes are dirty: observing one computes it (and what reads it, which cutoff
    // leaves as it was).
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["s0", "n0", "n1", "n2"] && report.cutOff == ["n2"])
    #expect(evaluator.outputs(of: "n1")?["table"]?.tableValue?.rowCount == 3)
  }
}
