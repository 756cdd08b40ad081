import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// Every param is also an input, edited in a store: connecting into a param handle gives the node
/// an input for it, disconnecting takes it away (the written value applies again), undo and redo
/// replay both, and the engine follows: the fed value wins while the edge is there, and only the
/// node and what depends on it rerun.
///
/// The graph: `source` (5 rows) → `top` (`limit`, `count` 1 written) → `n` (`rowCount`), a
/// side branch `all` (`rowCount` of the source), and `k` (`number`, 2) that no edge leaves yet.
@Suite struct ParameterInputConnectTests {
  private static let rows: JSONValue = .array((1...5).map { ["x": .integer(Int64($0))] })

  private static func document() -> FlowDocument {
    FlowDocument(
      nodes: [
        .node("source", "tableInput", params: ["table": rows]), .node("k", "number", params: ["value": 2]),
        .node("top", "limit", params: ["count": 1]), .node("n", "rowCount"), .node("all", "rowCount")
      ],
      edges: [
        .edge("e1", "source.table", "top.table"), .edge("e3", "top.table", "n.table"),
        .edge("e4", "source.table", "all.table")
      ])
  }

  /// An engine over `document()`, after its first pass.
  private static func engine(_ document: FlowDocument = document()) async throws -> FlowEngine {
    let engine = try FlowEngine(document: document, registry: FedPipeline.registry)
    _ = await engine.evaluate()
    return engine
  }

  private static func count(_ engine: FlowEngine) async -> Value? { await engine.outputs(of: "n")?["count"] }

  private static func ran(_ engine: FlowEngine) async -> Set<String> { Set(await engine.evaluate()?.ran ?? []) }

  // MARK: - Store

  @Test func connectingIntoAParamHandleGivesTheNodeThatInputAndDisconnectingTakesItAway() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    try store.addEdge(.edge("e2", "k.value", "top.count"))
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1", "e2"])
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "count"])
    try store.removeEdge(id: "e2")
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1"])
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table"])
    #expect(store.undo())
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "count"])
    #expect(store.undo())
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table"])
    #expect(store.redo())
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1", "e2"])
    store._checkInvariants()
  }

  @Test func theChangeCarriesTheNodeReplacedBeforeTheEdgeArrivesAndAfterItLeaves() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    let recorder = StoreRecorder(store)
    try store.addEdge(.edge("e2", "k.value", "top.count"))
    try store.removeEdge(id: "e2")
    let items = recorder.log.changes.map { $0.items.map(Self.describe) }
    #expect(items == [["replace top", "add e2"], ["remove e2", "replace top"]])
  }

  @Test func aCycleThroughAParamEdgeIsRefused() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    let error = #expect(throws: GraphValidationError.self) { try store.addEdge(.edge("e9", "n.count", "top.count")) }
    #expect(error?.issues.first?.code == .cycle)
    #expect(error?.issues.first?.message.hasPrefix("edge 'e9' would close a cycle: ") == true)
    #expect(Set(error?.issues.first?.nodeIDs ?? []) == ["top", "n"])
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table"])
    #expect(store.revision == 0)
  }

  @Test func aTypeMismatchIntoAParamIsRefusedNamingTheParam() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    let error = #expect(throws: GraphValidationError.self) {
      try store.addEdge(.edge("e9", "source.table", "top.count"))
    }
    #expect(error?.issues.first?.code == .typeMismatch)
    #expect(error?.issues.first?.handleID == "count")
    #expect(
      error?.issues.first?.message == "edge 'e9': source.table is table but param 'count' of node 'top' takes a number")
    #expect(store.revision == 0)
  }

  @Test func aSecondEdgeIntoAFedParamIsRefusedNamingTheFirst() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    try store.addEdge(.edge("e2", "k.value", "top.count"))
    try store.addNode(.node("j", "number", params: ["value": 3]))
    let second = #expect(throws: GraphValidationError.self) { try store.addEdge(.edge("e8", "j.value", "top.count")) }
    #expect(second?.issues.first?.code == .inputAlreadyConnected)
    #expect(second?.issues.first?.message.contains("already has edge 'e2'") == true)
  }

  @Test func editingTheFedNodeKeepsItsParamInputAndRemovingTheSourceReleasesIt() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    try store.addEdge(.edge("e2", "k.value", "top.count"))
    try store.updateNode(.node("top", "limit", params: ["count": 3, "offset": 1]))
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "count"])
    try store.removeNode(id: "k")
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table"])
    #expect(store.undo())
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1", "e2"])
    store._checkInvariants()
  }

  @Test func releasingOneOfTwoFedParamsMovesTheOtherUp() throws {
    let store = try FlowStore(catalog: FedPipeline.registry, document: Self.document())
    try store.addEdge(.edge("e2", "k.value", "top.count"))
    try store.addEdge(.edge("e5", "k.value", "top.offset"))
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "count", "offset"])
    try store.removeEdge(id: "e2")
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "offset"])
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1", "e5"])
    #expect(store.undo())
    #expect(store.incomingEdges(of: "top").map(\.id) == ["e1", "e2", "e5"])
    store._checkInvariants()
  }

  @Test func aLoadedParamEdgeDisconnectsLikeAConnectedOne() throws {
    var document = Self.document()
    document.edges.append(.edge("e2", "k.value", "top.count"))
    let store = try FlowStore(catalog: FedPipeline.registry, document: document)
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table", "count"])
    try store.removeEdge(id: "e2")
    #expect(store.resolvedSignature(of: "top")?.inputs.map(\.name) == ["table"])
  }

  // MARK: - Engine

  @Test func theEngineFollowsAConnectedParamAndTheWrittenValueReturnsOnDisconnect() async throws {
    let engine = try await Self.engine()
    #expect(await Self.count(engine) == .integer(1))
    try engine.store.addEdge(.edge("e2", "k.value", "top.count"))
    #expect(await Self.ran(engine) == ["top", "n"])
    #expect(await Self.count(engine) == .integer(2))
    try engine.store.updateNode(.node("k", "number", params: ["value": 4]))
    #expect(await Self.ran(engine) == ["k", "top", "n"])
    #expect(await Self.count(engine) == .integer(4))
    try engine.store.removeEdge(id: "e2")
    #expect(await Self.ran(engine) == ["top", "n"])
    #expect(await Self.count(engine) == .integer(1))
    #expect(engine.store.undo())  // the edge is back
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(4))
    #expect(engine.store.undo())  // k's edit
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(2))
    #expect(engine.store.undo())  // the edge
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(1))
    #expect(engine.store.redo())
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(2))
    #expect(engine.store.redo())
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(4))
    #expect(await engine.outputs(of: "all")?["count"] == .integer(5))
  }

  @Test func editingTheFedNodeKeepsTheEdgeWinningAndRemovingTheSourceRestoresTheWrittenValue() async throws {
    let engine = try await Self.engine()
    try engine.store.addEdge(.edge("e2", "k.value", "top.count"))
    try engine.store.updateNode(.node("top", "limit", params: ["count": 3]))
    _ = await engine.evaluate()
    #expect(await Self.count(engine) == .integer(2))
    try engine.store.removeNode(id: "k")
    #expect(await Self.ran(engine) == ["top", "n"])
    #expect(await Self.count(engine) == .integer(3))
  }
}

extension ParameterInputConnectTests {
  /// `add e2`, `replace top`, … for an item.
  static func describe(_ item: FlowStoreChange.Item) -> String {
    switch item {
    case .node(.add(let node)): "add \(node.id)"
    case .node(.replace(let node)): "replace \(node.id)"
    case .node(let change): "node \(change.nodeID)"
    case .edge(.add(let edge)): "add \(edge.id)"
    case .edge(.remove(let id)): "remove \(id)"
    case .edge: "edge"
    case .subgraphReplaced: "subgraph"
    }
  }
}
