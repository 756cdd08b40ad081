import Foundation
import Testing

import FlowGraph
import FlowTestSupport

@Suite struct FlowStoreBatchAndUndoTests {
  // MARK: - Batches

  @Test func aBatchIsOneRevisionOneChangeAndOneCallbackOfEachKind() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let c = FlowNode.node("c", "number")
    try store.batch { batch throws(GraphValidationError) in
      try batch.addNode(c)
      try batch.removeEdge(id: "e1")
      try batch.addEdge(.edge("e4", "c.value", "sum.a"))
      #expect(batch.node(id: "c") == c)
      #expect(batch.incomingEdges(of: "sum").map(\.id) == ["e4", "e2"])
      try batch.removeNode(id: "show")
    }
    #expect(store.revision == 1)
    let log = recorder.drain()
    #expect(
      log.changes == [
        FlowStoreChange(
          revision: 1,
          items: [
            .node(.add(c)), .edge(.remove(id: "e1")), .edge(.add(.edge("e4", "c.value", "sum.a"))),
            .node(.remove(id: "show"))
          ])
      ])
    #expect(log.nodeChanges == [[.add(c), .remove(id: "show")]])
    #expect(log.edgeChanges == [[.remove(id: "e1"), .add(.edge("e4", "c.value", "sum.a"))]])
    store._checkInvariants()
  }

  @Test func aFailingBatchRestoresEverythingIncludingTheEdgesOfARemovedNode() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.addEdge(.edge("e4", "sum.result", "show.value"))
    _ = recorder.drain()
    let before = StoreContents(store)
    #expect(throws: GraphValidationError.self) {
      try store.batch { batch throws(GraphValidationError) in
        try batch.addNode(.node("c", "number"))
        try batch.addEdge(.edge("e5", "c.value", "p.in"))  // p.in has e3
      }
    }
    let error = #expect(throws: GraphValidationError.self) {
      try store.batch { batch throws(GraphValidationError) in
        try batch.removeNode(id: "sum")
        try batch.addNode(.node("sum", "pass"))
        try batch.addEdge(.edge("e1", "a.value", "sum.in"))
        try batch.updateNode(.node("a", "number", params: ["value": 7]))
        try batch.removeEdge(id: "e1")
        try batch.addEdge(.edge("e6", "p.out", "a"))  // a has no input
      }
    }
    #expect(error?.contains(.unknownHandle) == true)
    #expect(StoreContents(store) == before)
    #expect(recorder.log.isEmpty)
    store._checkInvariants()
    // The store still works, and the restored edges are really attached.
    #expect(throws: GraphValidationError.self) { try store.addEdge(.edge("e7", "b.value", "sum.a")) }
    try store.removeNode(id: "sum")
    #expect(store.edges.isEmpty)
  }

  @Test func aBatchBodyMayCatchARejectedMutationAndGoOn() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.batch { batch throws(GraphValidationError) in
      #expect(throws: GraphValidationError.self) { try batch.addEdge(.edge("e4", "p.out", "sum.a")) }
      try batch.removeEdge(id: "e2")
    }
    #expect(store.edges.map(\.id) == ["e1", "e3"])
    #expect(recorder.drain().edgeChanges == [[.remove(id: "e2")]])
  }

  @Test func anEmptyBatchChangesNothing() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.batch { _ throws(GraphValidationError) in }
    #expect(store.revision == 0 && !store.canUndo)
    #expect(recorder.log.isEmpty)
  }

  // MARK: - Undo and redo

  @Test func undoAndRedoRestoreExactStateAndFireTheCallbacks() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    var states = [StoreContents(store)]
    try store.removeNode(id: "sum")
    states.append(StoreContents(store))
    try store.addNode(.node("c", "number"))
    states.append(StoreContents(store))
    try store.batch { batch throws(GraphValidationError) in
      try batch.addNode(.node("sum", "add"))
      try batch.addEdge(.edge("e1", "c.value", "sum.b"))
      try batch.updateNode(.node("b", "number", params: ["value": 2]))
    }
    states.append(StoreContents(store))
    _ = recorder.drain()

    for expected in states.dropLast().reversed() {
      #expect(store.undo())
      var state = StoreContents(store)
      #expect(state.revision == states.last!.revision + (states.count - 1 - states.firstIndex(of: expected)!))
      state.revision = expected.revision
      state.canRedo = expected.canRedo
      state.canUndo = expected.canUndo
      #expect(state == expected)
      store._checkInvariants()
    }
    #expect(!store.undo() && !store.canUndo && store.canRedo)
    let undone = recorder.drain()
    #expect(undone.changes.map(\.revision) == [4, 5, 6])
    #expect(undone.nodeChanges.last == [.add(.node("sum", "add"))])
    // Undo applies the inverse steps last first: the node comes back, then its edges.
    #expect(
      undone.edgeChanges.last == [
        .add(.edge("e3", "sum.result", "p.in")), .add(.edge("e2", "b.value", "sum.b")),
        .add(.edge("e1", "a.value", "sum.a"))
      ])
    #expect(undone.nodeChanges.first == [.replace(.node("b", "number")), .remove(id: "sum")])

    for expected in states.dropFirst() {
      #expect(store.redo())
      var state = StoreContents(store)
      state.revision = expected.revision
      state.canRedo = expected.canRedo
      #expect(state.nodes == expected.nodes && state.edges == expected.edges)
      #expect(state.incoming == expected.incoming && state.outgoing == expected.outgoing)
      store._checkInvariants()
    }
    #expect(!store.redo() && store.revision == 9)
    #expect(recorder.drain().changes.count == 3)
  }

  @Test func aNewMutationClearsRedo() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    try store.removeEdge(id: "e1")
    store.undo()
    #expect(store.canRedo)
    try store.removeEdge(id: "e2")
    #expect(!store.canRedo && !store.redo())
    #expect(store.edges.map(\.id) == ["e1", "e3"])
  }

  @Test func undoingARewireRestoresTheOldEndpoints() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.updateEdge(.edge("e3", "sum.result", "show.value"))
    store.undo()
    #expect(store.edge(id: "e3") == .edge("e3", "sum.result", "p.in"))
    #expect(store.incomingEdges(of: "p").map(\.id) == ["e3"] && store.incomingEdges(of: "show").isEmpty)
    #expect(recorder.drain().edgeChanges.last == [.replace(.edge("e3", "sum.result", "p.in"))])
    store._checkInvariants()
  }

  @Test func tombstonesAreDroppedOnceNoHistoryNeedsThem() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    store._compactionMinimum = 8
    let initial = StoreContents(store)
    for round in 0..<40 {
      try store.addNode(.node("t\(round)", "identity"))
      try store.addEdge(.edge("x\(round)", "p.out", "t\(round)"))
      try store.removeNode(id: "t\(round)")
    }
    // Undo may revive every one of them: they stay.
    #expect(store._slotCounts.nodes == 45 && store._slotCounts.edges == 43)
    for _ in 0..<120 { #expect(store.undo()) }
    var state = StoreContents(store)
    state.revision = initial.revision
    state.canRedo = false
    #expect(state == initial)
    try store.removeEdge(id: "e1")  // clears redo: now nothing refers to them
    store._compactionMinimum = 0
    try store.addNode(.node("u", "number"))
    #expect(store._slotCounts.nodes == 6 && store._slotCounts.edges == 3)  // e1's slot: undo needs it
    store._checkInvariants()
    #expect(store.undo() && store.undo())
    state = StoreContents(store)
    state.revision = initial.revision
    state.canRedo = false
    #expect(state == initial)
    #expect(store.redo() && store.redo())
    #expect(store.nodes.map(\.id) == ["a", "b", "sum", "p", "show", "u"] && store.edges.map(\.id) == ["e2", "e3"])
    store._checkInvariants()
  }
}
