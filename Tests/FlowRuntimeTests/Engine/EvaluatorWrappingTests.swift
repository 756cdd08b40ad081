import FlowGraph
import FlowNodes
import FlowTestSupport
import Testing
@testable import FlowRuntime

/// `GraphEvaluator.wrapEvaluator(of:_:)`, a host's hook by node id: the wrapped node runs
/// through the wrapper on every run (its kind's scalar fast path included), a node of the same
/// kind and params keeps its own evaluator, edits to the wrapped node's inputs keep the wrapper,
/// and an unknown id changes nothing.
@Suite struct EvaluatorWrappingTests {
  /// Its base's result times ten, counting its runs.
  struct TimesTen: NodeEvaluator {
    let base: any NodeEvaluator
    let runs: Locked<Int>

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      runs.withLock { $0 += 1 }
      try base.evaluate(inputs, &outputs)
      if case .number(let value) = outputs[0] { outputs[0] = .number(value * 10) }
    }
  }

  /// `a → x`, `a → y`: `a` is 1 + 1, `x` and `y` are `add` nodes without params (they share
  /// their kind's one configuration), each `a + b` with `b` unconnected (0).
  static func twins() -> FlowDocument {
    var graphs = Graphs()
    graphs.node("a", "add", ["a": 1, "b": 1])
    graphs.node("x", "add", [:])
    graphs.node("y", "add", [:])
    graphs.edge("a", to: "x", "a")
    graphs.edge("a", to: "y", "a")
    return graphs.document
  }

  @Test func aWrappedNodeRunsThroughItsWrapperAndItsTwinDoesNot() throws {
    var evaluator = try GraphEvaluator(validating: Self.twins(), registry: .standard)
    let runs = Locked(0)
    func configuration(_ id: String) -> UInt32 { evaluator.graph.record(evaluator.graph.indexByID[id]!).configuration }
    #expect(configuration("x") == configuration("y"), "one configuration of the kind")
    #expect(evaluator.wrapEvaluator(of: "x") { TimesTen(base: $0, runs: runs) })
    #expect(configuration("x") != configuration("y"), "the wrapped node's own")
    let first = evaluator.evaluate()
    #expect(Set(first.ran) == ["a", "x", "y"])
    #expect(evaluator.value(of: "x", port: "result") == .number(20))
    #expect(evaluator.value(of: "y", port: "result") == .number(2), "the twin keeps its kind's evaluator")
    #expect(runs.withLock { $0 } == 1)

    // An upstream edit and an edit of the wrapped node's own unconnected input: still wrapped.
    try evaluator.setUnconnectedInput(#require(evaluator.input("a", "a")), to: .number(3))
    let second = evaluator.evaluate()
    #expect(Set(second.ran) == ["a", "x", "y"])
    #expect(evaluator.value(of: "x", port: "result") == .number(40))
    #expect(evaluator.value(of: "y", port: "result") == .number(4))
    try evaluator.setUnconnectedInput(#require(evaluator.input("x", "b")), to: .number(6))
    let third = evaluator.evaluate()
    #expect(third.ran == ["x"])
    #expect(evaluator.value(of: "x", port: "result") == .number(100))
    #expect(evaluator.value(of: "y", port: "result") == .number(4))
    #expect(runs.withLock { $0 } == 3)
  }

  @Test func anUnknownIdChangesNothing() throws {
    var evaluator = try GraphEvaluator(validating: Self.twins(), registry: .standard)
    #expect(!evaluator.wrapEvaluator(of: "missing") { $0 })
    evaluator.evaluate()
    #expect(evaluator.value(of: "x", port: "result") == .number(2))
  }
}
