import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Synchronization
import Testing

/// A store and the engine over it share one resolution of each node: the registry configures
/// a node once, whether the engine starts from the store or applies the store's changes.
@Suite struct StoreEngineSharingTests {
  /// Counts the configurations of its nodes.
  final class Counter: Sendable {
    let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
  }

  /// `scaled`: `result = a × factor` (param `factor`); every configuration is counted.
  struct Scaled: NodeKind {
    let counter: Counter
    var name: String { "scaled" }
    var summary: String { "result = a × factor" }
    var parameters: [ParameterDeclaration] { [ParameterDeclaration("factor", .number, default: .number(1))] }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      counter.count.add(1, ordering: .relaxed)
      let factor = parameters.number("factor") ?? 1
      return NodeInstance(
        inputs: [InputPort("a", .number, default: .number(0))], outputs: [PortDeclaration("result", .number)],
        evaluator: Evaluator(factor: factor))
    }

    struct Evaluator: NodeEvaluator {
      let factor: Double
      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        outputs[0] = .number(try inputs.number(0) * factor)
      }
    }
  }

  static func registry(_ counter: Counter) -> NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(Scaled(counter: counter))
    return registry
  }

  /// `x` (number 2) → `s0` → `s1` → … → `s<count-1>`, each `scaled` by 2.
  static func chain(_ count: Int) -> FlowDocument {
    var graphs = Graphs()
    graphs.number("x", 2)
    var previous = "x"
    for index in 0..<count {
      graphs.node("s\(index)", "scaled", ["factor": 2])
      graphs.edge(previous, to: "s\(index)", "a")
      previous = "s\(index)"
    }
    return graphs.document
  }

  @Test func anEngineBuiltFromAStoreDoesNotConfigureItsNodesAgain() async throws {
    let counter = Counter()
    let registry = Self.registry(counter)
    let store = try FlowStore(catalog: registry, document: Self.chain(20))
    #expect(counter.value == 20)
    let engine = try FlowEngine(store: store, registry: registry)
    let report = try #require(await engine.evaluate())
    #expect(counter.value == 20, "the engine configured nodes the store had configured")
    #expect(report.ran.count == 21)
    #expect(await engine.outputs(of: "s19") == ["result": .number(2 * 1_048_576)])
  }

  @Test func storeChangesCarryTheirConfigurationToTheEngine() async throws {
    let counter = Counter()
    let registry = Self.registry(counter)
    let engine = try FlowEngine(document: Self.chain(3), registry: registry)
    await engine.evaluate()
    #expect(counter.value == 3)

    var node = try #require(engine.store.node(id: "s1"))
    node.data.params["factor"] = .number(3)
    try engine.store.updateNode(node)
    let update = try #require(await engine.evaluate())
    #expect(counter.value == 4, "an update configures the node once, in the store")
    #expect(Set(update.ran) == ["s1", "s2"])
    #expect(await engine.outputs(of: "s2") == ["result": .number(2 * 2 * 3 * 2)])

    try engine.store.addNode(FlowNode(id: "t", data: NodeSpec(kind: "scaled", params: ["factor": .number(5)])))
    try engine.store.addEdge(FlowEdge(id: "et", sourceNodeID: "s2", targetNodeID: "t", targetHandleID: "a"))
    let added = try #require(await engine.evaluate())
    #expect(counter.value == 5)
    #expect(Set(added.ran) == ["t"])
    #expect(await engine.outputs(of: "t") == ["result": .number(24 * 5)])
  }

  @Test func anotherRegistrysConfigurationsAreNotTaken() async throws {
    let counter = Counter()
    let registry = Self.registry(counter)
    let store = try FlowStore(catalog: registry, document: Self.chain(4))
    #expect(counter.value == 4)
    // A changed registry (another environment) configures the nodes itself, under its own settings.
    var other = registry
    other.environment = EvaluationEnvironment(documentFolder: "/tmp")
    let engine = try FlowEngine(store: store, registry: other)
    await engine.evaluate()
    #expect(counter.value == 8)
    #expect(await engine.outputs(of: "s3") == ["result": .number(32)])
  }

  @Test func theStoreHandsItsConfigurationsToOneEngineOnly() async throws {
    let counter = Counter()
    let registry = Self.registry(counter)
    let store = try FlowStore(catalog: registry, document: Self.chain(5))
    let first = try FlowEngine(store: store, registry: registry)
    let second = try FlowEngine(store: store, registry: registry)
    await first.evaluate()
    await second.evaluate()
    #expect(counter.value == 10, "the second engine configures its own nodes (the store no longer keeps them)")
    #expect(await first.outputs(of: "s4") == ["result": .number(64)])
    #expect(await second.outputs(of: "s4") == ["result": .number(64)])
  }

  @Test func removingAndRewiringEdgesNeedsNoIndexOfEdges() async throws {
    let engine = try FlowEngine(document: Self.chain(3), registry: .standard.merging(Scaled(counter: Counter())))
    await engine.evaluate()
    try engine.store.removeEdge(id: "e1")  // s0 → s1
    let removed = try #require(await engine.evaluate())
    #expect(Set(removed.ran) == ["s1", "s2"])
    #expect(await engine.outputs(of: "s2") == ["result": .number(0)])
    // was x → s0
    try engine.store.updateEdge(FlowEdge(id: "e0", sourceNodeID: "x", targetNodeID: "s1", targetHandleID: "a"))
    let rewired = try #require(await engine.evaluate())
    #expect(Set(rewired.ran) == ["s0", "s1", "s2"])
    #expect(await engine.outputs(of: "s0") == ["result": .number(0)])
    #expect(await engine.outputs(of: "s2") == ["result": .number(8)])
  }

  @Test func aReloadedDocumentIsConfiguredOnce() async throws {
    let counter = Counter()
    let registry = Self.registry(counter)
    let engine = try FlowEngine(document: Self.chain(2), registry: registry)
    await engine.evaluate()
    try engine.store.load(Self.chain(6))
    let report = try #require(await engine.evaluate())
    #expect(counter.value == 2 + 6)
    #expect(report.ran.count == 7)
    #expect(await engine.outputs(of: "s5") == ["result": .number(128)])
  }
}

extension NodeKindRegistry {
  /// This registry with `kind` added.
  fileprivate func merging(_ kind: any NodeKind) -> NodeKindRegistry {
    var copy = self
    copy.register(kind)
    return copy
  }
}
