import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

@Suite struct GraphEvaluatorTests {
  @Test func aFullPassRunsEveryNodeOnceAfterItsInputs() throws {
    var graphs = Graphs()
    graphs.node("sum", "add")
    graphs.number("x", 2)
    graphs.number("y", 3)
    graphs.node("twice", "multiply", ["b": 2])
    graphs.edge("x", to: "sum", "a")
    graphs.edge("y", to: "sum", "b")
    graphs.edge("sum", to: "twice", "a")
    var evaluator = try graphs.evaluator()
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["sum", "x", "y", "twice"])
    #expect(report.ran.count == 4)
    let position = Dictionary(uniqueKeysWithValues: report.ran.enumerated().map { ($1, $0) })
    #expect(
      position["x"]! < position["sum"]! && position["y"]! < position["sum"]! && position["sum"]! < position["twice"]!)
    #expect(evaluator.value(of: "twice", port: "result") == .number(10))
    #expect(evaluator.sinks == ["twice"])
    #expect(report.failed.isEmpty)
  }

  @Test func aSecondPassWithoutChangesRunsNothing() throws {
    var graphs = Graphs()
    graphs.number("x", 1)
    graphs.node("inc", "add", ["b": 1])
    graphs.edge("x", to: "inc", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    let again = evaluator.evaluate()
    #expect(again.ran.isEmpty)
    #expect(evaluator.evaluationCount(of: "inc") == 1)
  }

  /// 30 layers of diamonds: 2^30 paths from the source to the sink, 91 nodes. Each runs once.
  @Test func layeredDiamondsWithABillionPathsRunEachNodeOnce() throws {
    var graphs = Graphs()
    graphs.number("d0", 1)
    for layer in 1...30 {
      graphs.node("l\(layer)", "add")
      graphs.node("r\(layer)", "add")
      graphs.node("d\(layer)", "add")
      graphs.edge("d\(layer - 1)", to: "l\(layer)", "a")
      graphs.edge("d\(layer - 1)", to: "r\(layer)", "a")
      graphs.edge("l\(layer)", to: "d\(layer)", "a")
      graphs.edge("r\(layer)", to: "d\(layer)", "b")
    }
    var evaluator = try graphs.evaluator()
    let report = evaluator.evaluate()
    #expect(report.ran.count == 91)
    #expect(Set(report.ran).count == 91)
    #expect(evaluator.value(of: "d30", port: "result") == .number(Double(1 << 30)))
  }

  @Test func divisionByZeroFailsDescendantsNamingTheRootAndSparesOtherBranches() throws {
    var graphs = Graphs()
    graphs.number("one", 1)
    graphs.number("zero", 0)
    graphs.node("q", "divide")
    graphs.node("next", "add")
    graphs.node("last", "multiply")
    graphs.node("other", "add", ["b": 5])
    graphs.edge("one", to: "q", "a")
    graphs.edge("zero", to: "q", "b")
    graphs.edge("q", to: "next", "a")
    graphs.edge("next", to: "last", "a")
    graphs.edge("one", to: "other", "a")
    var evaluator = try graphs.evaluator()
    let report = evaluator.evaluate()
    #expect(evaluator.failure(of: "q") == "division by zero")
    #expect(evaluator.failure(of: "next") == "upstream error from q")
    #expect(evaluator.failure(of: "last") == "upstream error from q")
    #expect(evaluator.failure(of: "other") == nil)
    #expect(evaluator.value(of: "other", port: "result") == .number(6))
    #expect(
      report.failed == ["q": "division by zero", "next": "upstream error from q", "last": "upstream error from q"])
    #expect(!report.ran.contains("next") && !report.ran.contains("last"))
    #expect(evaluator.failures.count == 3)
  }

  @Test func aMillionNodeChainEvaluatesWithoutRecursion() throws {
    let count = 1_000_000
    var document = FlowDocument()
    document.nodes.reserveCapacity(count)
    document.edges.reserveCapacity(count)
    document.nodes.append(FlowNode(id: "n0", data: NodeSpec(kind: "number", params: ["value": 0])))
    let increment = NodeSpec(kind: "add", params: ["b": 1])
    for index in 1..<count {
      document.nodes.append(FlowNode(id: "n\(index)", data: increment))
      document.edges.append(
        FlowEdge(id: "e\(index)", sourceNodeID: "n\(index - 1)", targetNodeID: "n\(index)", targetHandleID: "a"))
    }
    let registry = NodeKindRegistry.standard
    var evaluator = GraphEvaluator(try DocumentValidator.validate(document, catalog: registry), registry: registry)
    let report = evaluator.evaluate()
    #expect(report.evaluationCount == count)
    #expect(evaluator.value(of: "n\(count - 1)", port: "result") == .number(Double(count - 1)))
  }

  @Test func aStoppedPassLeavesTheRestForTheNextPass() throws {
    var graphs = Graphs()
    graphs.number("n0", 0)
    for index in 1...300 {
      graphs.node("n\(index)", "add", ["b": 1])
      graphs.edge("n\(index - 1)", to: "n\(index)", "a")
    }
    var evaluator = try graphs.evaluator()
    var checks = 0
    let stopped = evaluator.evaluate(shouldStop: {
      checks += 1; return checks == 2
    })
    #expect(stopped.wasCancelled)
    #expect(stopped.ran.count < 301)
    let resumed = evaluator.evaluate()
    #expect(!resumed.wasCancelled)
    #expect(stopped.ran.count + resumed.ran.count == 301)
    #expect(Set(stopped.ran).isDisjoint(with: resumed.ran))
    #expect(evaluator.value(of: "n300", port: "result") == .number(300))
  }
}
