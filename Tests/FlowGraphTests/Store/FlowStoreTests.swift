import Foundation
import Testing

import FlowGraph
import FlowTestSupport

@Suite struct FlowStoreTests {
  // MARK: - Initial state and lookups

  @Test func aNewStoreHoldsTheDocumentInDocumentOrderAtRevisionZero() {
    let (store, recorder) = StoreFixtures.calculatorStore()
    #expect(store.revision == 0)
    #expect(store.nodes.map(\.id) == ["a", "b", "sum", "p", "show"])
    #expect(store.edges.map(\.id) == ["e1", "e2", "e3"])
    #expect(!store.canUndo && !store.canRedo)
    #expect(recorder.log.isEmpty)
    store._checkInvariants()
  }

  @Test func anEmptyStoreIsEmpty() {
    let store = FlowStore.testing()
    #expect(store.nodes.isEmpty && store.edges.isEmpty && store.revision == 0)
    #expect(store.export() == FlowDocument())
  }

  @Test func lookupsByIDFindNodesAndEdges() {
    let (store, _) = StoreFixtures.calculatorStore()
    #expect(store.node(id: "sum") == .node("sum", "add"))
    #expect(store.edge(id: "e2") == .edge("e2", "b.value", "sum.b"))
    #expect(store.node(id: "ghost") == nil)
    #expect(store.edge(id: "ghost") == nil)
  }

  @Test func perNodeEdgeListsFollowPortsAndInsertionOrder() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    try store.addEdge(.edge("e4", "sum.result", "show.value"))
    #expect(store.incomingEdges(of: "sum").map(\.id) == ["e1", "e2"])
    #expect(store.outgoingEdges(of: "sum").map(\.id) == ["e3", "e4"])
    #expect(store.incomingEdges(of: "a").isEmpty)
    #expect(store.outgoingEdges(of: "a").map(\.id) == ["e1"])
    #expect(store.incomingEdges(of: "ghost").isEmpty && store.outgoingEdges(of: "ghost").isEmpty)
    // Replacing the edge into `sum.a` keeps the lists ordered by port.
    try store.removeEdge(id: "e1")
    try store.addEdge(.edge("e5", "b.value", "sum.a"))
    #expect(store.incomingEdges(of: "sum").map(\.id) == ["e5", "e2"])
    #expect(store.outgoingEdges(of: "b").map(\.id) == ["e2", "e5"])
  }

  @Test func lookupsStayCorrectAfterManyRemovals() throws {
    let store = FlowStore.testing(DocumentBuilder.chain(count: 2_000))
    for index in stride(from: 1, to: 2_000, by: 2) { try store.removeNode(id: "n\(index)") }
    #expect(store.nodes.count == 1_000)
    #expect(store.edges.isEmpty)
    #expect(store.node(id: "n1_000") == nil)
    #expect(store.node(id: "n1998")?.data.kind == "pass")
    #expect(store.node(id: "n1999") == nil)
    #expect(store.nodes.map(\.id) == stride(from: 0, to: 2_000, by: 2).map { "n\($0)" })
    store._checkInvariants()
  }

  // MARK: - Node mutations

  @Test func addingANodeFiresOneAddAndBumpsTheRevision() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let node = FlowNode.node("c", "number", params: ["value": 3])
    try store.addNode(node)
    #expect(store.revision == 1)
    #expect(store.nodes.last == node)
    #expect(
      recorder.drain()
        == StoreRecorder.Log(
          nodeChanges: [[.add(node)]], edgeChanges: [],
          changes: [FlowStoreChange(revision: 1, items: [.node(.add(node))])]))
    #expect(store.canUndo)
  }

  @Test func removingANodeRemovesItsEdgesFirst() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.removeNode(id: "sum")
    #expect(store.nodes.map(\.id) == ["a", "b", "p", "show"])
    #expect(store.edges.isEmpty)
    #expect(store.outgoingEdges(of: "a").isEmpty && store.incomingEdges(of: "p").isEmpty)
    let log = recorder.drain()
    #expect(
      log.changes == [
        FlowStoreChange(
          revision: 1,
          items: [
            .edge(.remove(id: "e1")), .edge(.remove(id: "e2")), .edge(.remove(id: "e3")), .node(.remove(id: "sum"))
          ])
      ])
    #expect(log.nodeChanges == [[.remove(id: "sum")]])
    #expect(log.edgeChanges == [[.remove(id: "e1"), .remove(id: "e2"), .remove(id: "e3")]])
    store._checkInvariants()
  }

  @Test(arguments: [
    ("position", NodeChange.position(id: "a", position: CGPoint(x: 10, y: 20))),
    ("size", NodeChange.dimensions(id: "a", size: CGSize(width: 200, height: 80))),
    ("selection", NodeChange.select(id: "a", isSelected: true))
  ])
  func changingOneGeometryFieldEmitsItsOwnChange(field: String, expected: NodeChange) throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    var node = try #require(store.node(id: "a"))
    switch field {
    case "position": node.position = CGPoint(x: 10, y: 20)
    case "size": node.size = CGSize(width: 200, height: 80)
    default: node.isSelected = true
    }
    try store.updateNode(node)
    #expect(store.node(id: "a") == node)
    #expect(
      recorder.drain()
        == StoreRecorder.Log(
          nodeChanges: [[expected]], edgeChanges: [],
          changes: [FlowStoreChange(revision: 1, items: [.node(expected)])]))
  }

  @Test func changingParamsOrSeveralFieldsEmitsReplace() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    var node = try #require(store.node(id: "a"))
    node.data.params["value"] = 5
    try store.updateNode(node)
    node.position = CGPoint(x: 1, y: 1)
    node.isSelected = true
    try store.updateNode(node)
    node.zIndex = 3
    try store.updateNode(node)
    var first = node
    first.position = .zero
    first.isSelected = false
    first.zIndex = 0
    #expect(
      recorder.drain().nodeChanges == [
        [.replace(first)],
        [
          .replace(
            {
              var n = node; n.zIndex = 0; return n
            }())
        ],
        [.replace(node)]
      ])
    #expect(store.revision == 3)
  }

  @Test func anIdenticalUpdateChangesNothingAndFiresNothing() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.updateNode(try #require(store.node(id: "sum")))
    try store.updateEdge(try #require(store.edge(id: "e1")))
    #expect(store.revision == 0)
    #expect(recorder.log.isEmpty)
    #expect(!store.canUndo)
  }

  @Test func changingAKindKeepsTheEdgesThatStillResolve() throws {
    let store = FlowStore.testing(
      FlowDocument(
        nodes: [.node("x", "number"), .node("m", "merge", params: ["inputs": 2]), .node("y", "display")],
        edges: [.edge("e1", "x.value", "m.in1"), .edge("e2", "m.out", "y")]))
    let recorder = StoreRecorder(store)
    var merge = try #require(store.node(id: "m"))
    merge.data.params["inputs"] = 3
    try store.updateNode(merge)
    #expect(store.incomingEdges(of: "m").map(\.id) == ["e1"])
    #expect(recorder.drain().nodeChanges == [[.replace(merge)]])
    store._checkInvariants()
  }

  @Test func aHandleLessEdgeFollowsTheNewOnlyInput() throws {
    let store = FlowStore.testing(
      FlowDocument(
        nodes: [.node("x", "number"), .node("p", "pass")], edges: [.edge("e1", "x", "p")]))
    try store.updateNode(.node("p", "identity"))
    #expect(store.node(id: "p")?.data.kind == "identity")
    #expect(store.incomingEdges(of: "p").map(\.id) == ["e1"])
    store._checkInvariants()
  }

  // MARK: - Edge mutations

  @Test func addingAnEdgeFiresOneAdd() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let edge = FlowEdge.edge("e4", "p.out", "show.value")
    try store.addEdge(edge)
    #expect(store.edge(id: "e4") == edge)
    #expect(store.incomingEdges(of: "show") == [edge])
    #expect(
      recorder.drain()
        == StoreRecorder.Log(
          nodeChanges: [], edgeChanges: [[.add(edge)]],
          changes: [FlowStoreChange(revision: 1, items: [.edge(.add(edge))])]))
  }

  @Test func removingAnEdgeFiresOneRemove() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.removeEdge(id: "e2")
    #expect(store.edges.map(\.id) == ["e1", "e3"])
    #expect(store.incomingEdges(of: "sum").map(\.id) == ["e1"])
    #expect(store.outgoingEdges(of: "b").isEmpty)
    #expect(recorder.drain().edgeChanges == [[.remove(id: "e2")]])
  }

  @Test func rewiringAnEdgeMovesItBetweenNodesAndEmitsReplace() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let rewired = FlowEdge.edge("e3", "sum.result", "show.value")
    try store.updateEdge(rewired)
    #expect(store.edges.map(\.id) == ["e1", "e2", "e3"])
    #expect(store.incomingEdges(of: "p").isEmpty)
    #expect(store.incomingEdges(of: "show") == [rewired])
    #expect(recorder.drain().edgeChanges == [[.replace(rewired)]])
    store._checkInvariants()
  }

  @Test func reversingTheOnlyPathBetweenTwoNodesIsNoCycle() throws {
    let store = FlowStore.testing(
      FlowDocument(
        nodes: [.node("x", "identity"), .node("y", "identity")],
        edges: [.edge("e1", "x", "y")]))
    try store.updateEdge(.edge("e1", "y", "x"))
    #expect(store.outgoingEdges(of: "y").map(\.id) == ["e1"])
    #expect(store.incomingEdges(of: "y").isEmpty)
    store._checkInvariants()
  }

  @Test func selectingAnEdgeEmitsSelectAndRelabelingEmitsReplace() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    var edge = try #require(store.edge(id: "e1"))
    edge.isSelected = true
    try store.updateEdge(edge)
    edge.label = "first"
    try store.updateEdge(edge)
    #expect(recorder.drain().edgeChanges == [[.select(id: "e1", isSelected: true)], [.replace(edge)]])
  }

  // MARK: - Load, export, viewport

  @Test func loadReplacesTheGraphClearsHistoryAndFiresOnlyObservers() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.removeEdge(id: "e1")
    _ = recorder.drain()
    let document = DocumentBuilder.chain(count: 3)
    try store.load(document)
    #expect(store.revision == 2)
    #expect(store.nodes == document.nodes && store.edges == document.edges)
    #expect(!store.canUndo && !store.canRedo)
    let log = recorder.drain()
    #expect(log.changes == [FlowStoreChange(revision: 2, reloadedDocument: document, items: [])])
    #expect(log.nodeChanges.isEmpty && log.edgeChanges.isEmpty)
    store._checkInvariants()
  }

  @Test func anInvalidLoadReportsEveryIssueAndChangesNothing() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let before = StoreContents(store)
    let document = FlowDocument(
      nodes: [.node("x", "nope"), .node("x", "number"), .node("y", "pass")],
      edges: [.edge("e1", "y.out", "y.in")])
    let error = #expect(throws: GraphValidationError.self) { try store.load(document) }
    #expect(error?.issues.map(\.code) == document.validationIssues().map(\.code))
    #expect(error?.issues.count == 3)
    #expect(StoreContents(store) == before)
    #expect(recorder.log.isEmpty)
  }

  @Test func exportDropsTransientNodesAndTheirEdgesAndUnselects() throws {
    var document = StoreFixtures.calculator()
    document.nodes[1].persistence = .transient
    document.nodes[0].isSelected = true
    document.edges[0].isSelected = true
    document.viewport = Viewport(offset: CGPoint(x: 5, y: 6), zoom: 2)
    document.extra = ["app": "editor"]
    let store = FlowStore.testing(document)
    let exported = store.export()
    #expect(exported.nodes.map(\.id) == ["a", "sum", "p", "show"])
    #expect(exported.edges.map(\.id) == ["e1", "e3"])
    #expect(exported.nodes.allSatisfy { !$0.isSelected } && exported.edges.allSatisfy { !$0.isSelected })
    #expect(exported.viewport == document.viewport && exported.extra == document.extra)
    // The store itself keeps them.
    #expect(store.nodes.count == 5 && store.node(id: "a")?.isSelected == true)
  }

  @Test func settingTheViewportIsNoRevision() {
    let (store, recorder) = StoreFixtures.calculatorStore()
    store.viewport = Viewport(offset: CGPoint(x: 1, y: 2), zoom: 0.5)
    #expect(store.viewport.zoom == 0.5 && store.export().viewport.offset == CGPoint(x: 1, y: 2))
    #expect(store.revision == 0 && recorder.log.isEmpty)
  }
}
