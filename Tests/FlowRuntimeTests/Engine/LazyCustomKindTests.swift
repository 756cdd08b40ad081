import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// The guide's worked lazy kind (`Documentation/CustomKinds.md`, "Lazy inputs"), as written.
@Suite struct LazyCustomKindTests {
  struct FirstPositive: StaticNodeKind, LazyNodeEvaluator {
    var name: String { "firstPositive" }
    var summary: String { "value = a if a > 0, else b (b runs only then)" }
    var inputs: [InputPort] {
      [InputPort("a", .number, default: .number(0)), InputPort("b", .number, default: .number(0), lazy: true)]
    }
    var outputs: [PortDeclaration] { [PortDeclaration("value", .number)] }

    func neededInputs(given inputs: LazyInputs) throws -> [Int] {
      (inputs.value(0)?.numberValue ?? 0) > 0 ? [] : [1]
    }

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let a = try inputs.number(0)
      outputs[0] = .number(a > 0 ? a : try inputs.number(1))
    }
  }

  @Test func theGuidesKindReadsBOnlyWhenANeedsIt() throws {
    var registry = NodeKindRegistry.standard
    registry.register(FirstPositive())
    var graphs = Graphs()
    graphs.node("a", "add", ["a": .number(3)])
    graphs.node("b", "divide", ["b": .number(0)])
    graphs.node("first", "firstPositive")
    graphs.edge("a", to: "first", "a")
    graphs.edge("b", to: "first", "b")
    var evaluator = try GraphEvaluator(validating: graphs.document, registry: registry)
    #expect(Set(evaluator.evaluate().ran) == ["a", "first"])
    #expect(evaluator.value(of: "first", port: "value") == .number(3))
    try evaluator.setUnconnectedInput(#require(evaluator.input("a", "a")), to: .number(-1))
    evaluator.evaluate()
    #expect(evaluator.state(of: "first") == .failed(message: "upstream error from b", root: "b"))
  }
}
