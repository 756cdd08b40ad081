import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

/// `lerp`: `result = from + (to - from) * t`, reading its inputs by name.
private struct Lerp: StaticNodeKind {
  var name: String { "lerp" }
  var summary: String { "result = from + (to - from) * t" }
  var readsInputsByName: Bool { true }
  var inputs: [InputPort] {
    [
      InputPort("from", .number, default: .number(0)), InputPort("to", .number, default: .number(1)),
      InputPort("t", .number, default: .number(0.5)), InputPort("label", .string, default: .string(""))
    ]
  }
  var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let from = try inputs.number("from"), to = try inputs.number("to")
    #expect(try inputs.index(of: "t") == 2 && inputs.number("t") == inputs.number(2))
    #expect(try inputs["label"] == .string("") && inputs.string("label") == "")
    outputs[0] = .number(from + (to - from) * (try inputs.number("t")))
  }
}

/// Reads an input that does not exist, or by name without naming its inputs.
private struct Confused: StaticNodeKind {
  var name: String { "confused" }
  var summary: String { "reads inputs wrongly" }
  let byName: Bool
  var readsInputsByName: Bool { byName }
  var inputs: [InputPort] { [InputPort("x", .number, default: .number(1))] }
  var outputs: [PortDeclaration] { [PortDeclaration("y", .number)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = .number(try byName ? inputs.number("nope") : inputs.number("x"))
  }
}

/// A parametric kind whose instance names its inputs.
private struct Pick: NodeKind {
  var name: String { "pick" }
  var summary: String { "outputs the input named by param `which`" }
  var parameters: [ParameterDeclaration] { [ParameterDeclaration("which", .string, default: .string("a"))] }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let which = parameters.string("which") ?? "a"
    return NodeInstance(
      inputs: [InputPort("a", .integer, default: .integer(1)), InputPort("b", .bool, default: .bool(true))],
      outputs: [PortDeclaration("out", .any)], evaluator: Evaluator(which: which)
    ).namingInputs().namingInputs()
  }

  struct Evaluator: NodeEvaluator {
    let which: String
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = which == "a" ? .integer(try inputs.integer("a")) : .bool(try inputs.bool(which))
    }
  }
}

/// `sizes`: how many items and rows its `list` and `table` inputs hold, read by name.
private struct Sizes: StaticNodeKind {
  var name: String { "sizes" }
  var summary: String { "counts items and rows" }
  var readsInputsByName: Bool { true }
  var inputs: [InputPort] {
    [
      InputPort("items", .list, default: .list([.integer(1), .integer(2)])),
      InputPort("rows", .table, default: .table(Table(rowCount: 3)))
    ]
  }
  var outputs: [PortDeclaration] { [PortDeclaration("count", .integer)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    #expect(throws: NodeError.self) { try inputs.table("items") }
    #expect(throws: NodeError.self) { try inputs.list("rows") }
    outputs[0] = .integer(Int64(try inputs.list("items").count + inputs.table("rows").rowCount))
  }
}

@Suite struct NodeInputsByNameTests {
  @Test func listsAndTablesReadByNameToo() throws {
    var registry = NodeKindRegistry()
    registry.register(Sizes())
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: [FlowNode(id: "s", data: NodeSpec(kind: "sizes"))]),
      registry: registry)
    evaluator.evaluate()
    #expect(evaluator.value(of: "s", port: "count") == .integer(5))
  }

  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(Lerp())
    registry.register(Pick())
    return registry
  }

  @Test func aKindReadsItsInputsByNameThroughEdgesParamsAndDefaults() async throws {
    let document = FlowDocument(
      nodes: [
        FlowNode(id: "ten", data: NodeSpec(kind: "number", params: ["value": 10])),
        FlowNode(id: "mix", data: NodeSpec(kind: "lerp", params: ["t": 0.25]))
      ],
      edges: [
        FlowEdge(id: "e1", sourceNodeID: "ten", sourceHandleID: "value", targetNodeID: "mix", targetHandleID: "to")
      ])
    let engine = try FlowEngine(document: document, registry: Self.registry)
    let first = try #require(await engine.evaluate())
    #expect(first.failed.isEmpty)
    #expect(await engine.outputs(of: "mix") == ["result": .number(2.5)])
    var mix = try #require(engine.store.node(id: "mix"))
    mix.data.params["from"] = 2
    try engine.store.updateNode(mix)
    let second = try #require(await engine.evaluate())
    #expect(second.ran == ["mix"])
    #expect(await engine.outputs(of: "mix") == ["result": .number(4)])
    engine.shutDown()
  }

  @Test func aParametricInstanceNamesItsInputsOnce() throws {
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: [
        FlowNode(id: "pa", data: NodeSpec(kind: "pick")),
        FlowNode(id: "pb", data: NodeSpec(kind: "pick", params: ["which": "b"]))
      ]), registry: Self.registry)
    evaluator.evaluate()
    #expect(evaluator.value(of: "pa", port: "out") == .integer(1))
    #expect(evaluator.value(of: "pb", port: "out") == .bool(true))
  }

  @Test(arguments: [true, false])
  func readingAMissingNameIsANodeErrorNamingIt(byName: Bool) throws {
    var registry = NodeKindRegistry()
    registry.register(Confused(byName: byName))
    var evaluator = try GraphEvaluator(
      validating: FlowDocument(nodes: [FlowNode(id: "c", data: NodeSpec(kind: "confused"))]),
      registry: registry)
    evaluator.evaluate()
    let message = try #require(evaluator.failure(of: "c"))
    if byName {
      #expect(message.contains("no input named 'nope' (inputs: x)"), "\(message)")
    } else {
      #expect(message.contains("does not name its inputs"), "\(message)")
    }
  }
}
