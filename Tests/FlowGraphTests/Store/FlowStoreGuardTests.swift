import Testing

import FlowGraph
import FlowTestSupport

/// A guard that blocks any operation touching a node in `locked`.
private func lockGuard(_ locked: Set<String>) -> StoreGuard {
  StoreGuard("lock") { operation in
    if let id = operation.nodeIDs.first(where: locked.contains) { return .veto("node '\(id)' is locked") }
    return .allow
  }
}

@Suite struct FlowStoreGuardTests {
  @Test func aVetoedMutationThrowsTheReasonChangesNothingFiresNothingAndIsNotUndoable() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.addNode(.node("c", "number"))
    _ = recorder.drain()
    store.addGuard(lockGuard(["a"]))
    let before = StoreContents(store)
    let error = #expect(throws: GraphValidationError.self) {
      try store.updateNode(.node("a", "number", params: ["value": 5]))
    }
    #expect(error?.issues.map(\.code) == [.vetoed])
    #expect(error?.issues.first?.nodeIDs == ["a"])
    #expect(error?.description == "guard 'lock' blocked updateNode [a]: node 'a' is locked")
    #expect(StoreContents(store) == before)
    #expect(recorder.log.isEmpty)
    // The undo stack's top is still the add of `c`.
    #expect(store.undo())
    #expect(store.node(id: "c") == nil)
    #expect(store.node(id: "a")?.data.params["value"] == nil)
    store._checkInvariants()
  }

  @Test func removingANodeAndItsEdgesIsBlockedAsAWhole() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    store.addGuard(lockGuard(["sum"]))
    #expect(throws: GraphValidationError.self) { try store.removeNode(id: "sum") }
    #expect(store.edges.map(\.id) == ["e1", "e2", "e3"])
    // Other nodes are free.
    try store.removeNode(id: "show")
    #expect(recorder.drain().nodeChanges == [[.remove(id: "show")]])
  }

  @Test func aBatchIsVetoedOnWhatItDidAndRolledBack() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let seen = LockedValue<[StoreOperation]>([])
    store.addGuard(
      StoreGuard("spy") { operation in
        seen.withLock { $0.append(operation) }
        return operation.kind == .batch && operation.edgeIDs.contains("e4") ? .veto("no e4") : .allow
      })
    let before = StoreContents(store)
    let error = #expect(throws: GraphValidationError.self) {
      try store.batch { batch throws(GraphValidationError) in
        try batch.addNode(.node("c", "number"))
        try batch.removeEdge(id: "e1")
        try batch.addEdge(.edge("e4", "c.value", "sum.a"))
      }
    }
    #expect(error?.issues.first?.code == .vetoed)
    #expect(StoreContents(store) == before)
    #expect(recorder.log.isEmpty)
    let batch = try #require(seen.value.last)
    #expect(batch.kind == .batch)
    #expect(batch.nodeIDs == ["c"] && batch.edgeIDs == ["e1", "e4"])
    #expect(batch.nodes == [.node("c", "number")] && batch.edges == [.edge("e4", "c.value", "sum.a")])
    store._checkInvariants()
  }

  @Test func aGuardMayVetoUndoAndRedoWhichThenStayAvailable() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    try store.addNode(.node("c", "number"))
    let blockedKinds = LockedValue<Set<StoreOperation.Kind>>([.undo])
    store.addGuard(
      StoreGuard("history") { operation in
        blockedKinds.value.contains(operation.kind) ? .veto("\(operation.kind) is off") : .allow
      })
    #expect(!store.undo())
    #expect(store.node(id: "c") != nil && store.canUndo && !store.canRedo)
    let error = #expect(throws: GraphValidationError.self) { try store.apply(.undo) }
    #expect(error?.description == "guard 'history' blocked undo [c]: undo is off")
    #expect(store.revision == 1)

    blockedKinds.withLock { $0 = [.redo] }
    #expect(store.undo())
    #expect(store.node(id: "c") == nil && store.canRedo)
    #expect(!store.redo())
    #expect(store.node(id: "c") == nil && store.canRedo)
    blockedKinds.withLock { $0 = [] }
    #expect(store.redo())
    #expect(store.node(id: "c") != nil)
    #expect(
      store.operationHistory.map(\.outcome) == [
        .applied,
        .blocked(guard: "history", reason: "undo is off"), .blocked(guard: "history", reason: "undo is off"),
        .applied, .blocked(guard: "history", reason: "redo is off"), .applied
      ])
    #expect(store.operationHistory.map(\.revision) == [1, 1, 1, 2, 2, 3])
    store._checkInvariants()
  }

  @Test func aVetoedLoadKeepsTheGraphAndTheUndoHistory() throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    try store.addNode(.node("c", "number"))
    _ = recorder.drain()
    store.addGuard(StoreGuard("no-load") { $0.kind == .load ? .veto("loading is disabled") : .allow })
    let before = StoreContents(store)
    #expect(throws: GraphValidationError.self) { try store.load(FlowDocument()) }
    #expect(StoreContents(store) == before)
    #expect(recorder.log.isEmpty)
    let record = try #require(store.operationHistory.last)
    #expect(record.operation.kind == .load && record.operation.document == nil)
    #expect(record.description == "#1 r1 blocked by 'no-load' (loading is disabled): load")
  }

  @Test func guardsRunInOrderTheFirstVetoWinsAndANameReplacesInPlace() throws {
    let store = FlowStore.testing()
    let calls = LockedValue<[String]>([])
    store.addGuard(
      StoreGuard("first") { _ in
        calls.withLock { $0.append("first") }; return .allow
      })
    store.addGuard(
      StoreGuard("second") { _ in
        calls.withLock { $0.append("second") }; return .veto("no")
      })
    store.addGuard(
      StoreGuard("third") { _ in
        calls.withLock { $0.append("third") }; return .allow
      })
    #expect(throws: GraphValidationError.self) { try store.addNode(.node("a", "number")) }
    #expect(calls.value == ["first", "second"])
    store.addGuard(
      StoreGuard("second") { _ in
        calls.withLock { $0.append("second'") }; return .allow
      })
    #expect(store.guardNames == ["first", "second", "third"])
    calls.withLock { $0 = [] }
    try store.addNode(.node("a", "number"))
    #expect(calls.value == ["first", "second'", "third"])
    #expect(store.removeGuard(named: "first") && !store.removeGuard(named: "first"))
    #expect(store.guardNames == ["second", "third"])
  }

  @Test func asyncGuardsDoNotRunForTheSynchronousAPI() throws {
    let store = FlowStore.testing()
    store.addGuard(StoreGuard("async", asyncCheck: { _ in .veto("never asked synchronously") }))
    #expect(!StoreGuard("async", asyncCheck: { _ in .allow }).isSynchronous)
    #expect(StoreGuard("sync") { _ in .allow }.isSynchronous)
    try store.addNode(.node("a", "number"))
    #expect(store.nodes.count == 1)
  }

  @Test func theHistoryRecordsAppliedBlockedAndRejectedOperationsInABoundedRing() throws {
    let store = FlowStore.testing()
    store.operationHistoryCapacity = 3
    store.addGuard(lockGuard(["x"]))
    try store.addNode(.node("a", "number"))  // #0 applied
    #expect(throws: GraphValidationError.self) { try store.addNode(.node("a", "number")) }  // #1 rejected
    #expect(throws: GraphValidationError.self) { try store.addNode(.node("x", "number")) }  // #2 blocked
    try store.updateNode(.node("a", "number"))  // #3 applied, no change
    let history = store.operationHistory
    #expect(history.map(\.sequence) == [1, 2, 3])
    #expect(history.map(\.revision) == [1, 1, 1])
    guard case .rejected(let message) = history[0].outcome else { Issue.record("\(history[0])"); return }
    #expect(message.contains("'a'"))
    #expect(history[1].outcome == .blocked(guard: "lock", reason: "node 'x' is locked"))
    #expect(history[2].operation == .updateNode(.node("a", "number")) && history[2].wasApplied)
    store.operationHistoryCapacity = 1
    #expect(store.operationHistory.map(\.sequence) == [3])
  }

  @Test func applyPerformsEveryKindAndRefusesWhatItCannot() throws {
    let store = FlowStore.testing()
    try store.apply(
      .batch([
        .addNode(.node("a", "number")), .addNode(.node("p", "pass")),
        .addEdge(.edge("e1", "a.value", "p.in"))
      ]))
    try store.apply(.updateNode(.node("a", "number", params: ["value": 2])))
    try store.apply(
      .updateEdge(
        FlowEdge(
          id: "e1", sourceNodeID: "a", sourceHandleID: "value", targetNodeID: "p",
          targetHandleID: "in", label: "x")))
    try store.apply(.removeEdge(id: "e1"))
    try store.apply(.removeNode(id: "p"))
    #expect(store.nodes == [.node("a", "number", params: ["value": 2])] && store.edges.isEmpty)
    #expect(try store.apply(.undo) && store.node(id: "p") != nil)
    #expect(try store.apply(.redo) && store.node(id: "p") == nil)
    try store.apply(.load(FlowDocument()))
    #expect(store.nodes.isEmpty && !store.canUndo)
    #expect(try !store.apply(.undo))
    for bad: StoreOperation in [
      .batch([.undo]), StoreOperation(kind: .addNode), StoreOperation(kind: .load),
      StoreOperation(kind: StoreOperation.Kind(rawValue: "teleport"))
    ] {
      let error = #expect(throws: GraphValidationError.self) { try store.apply(bad) }
      #expect(error?.issues.first?.code == .unsupportedOperation, "\(bad)")
    }
    #expect(store.nodes.isEmpty)
    store._checkInvariants()
  }

  // MARK: - The undo ring

  @Test func undoGoesBackExactlyUndoCapacityStepsAndForgetsTheOldest() throws {
    let store = FlowStore.testing()
    #expect(store.undoCapacity == FlowStore.undoLimit)
    store.undoCapacity = 3
    for index in 0..<5 { try store.addNode(.node("n\(index)", "number")) }
    #expect(store.undo() && store.undo() && store.undo())
    #expect(!store.undo())
    #expect(store.nodes.map(\.id) == ["n0", "n1"])
    #expect(store.redo() && store.redo() && store.redo() && !store.redo())
    #expect(store.nodes.map(\.id) == ["n0", "n1", "n2", "n3", "n4"])
    // Exactly at capacity: three steps fill the ring, a fourth pushes the oldest out.
    try store.load(FlowDocument())
    for index in 0..<3 { try store.addNode(.node("m\(index)", "number")) }
    store.undoCapacity = 3
    #expect(store.undo() && store.undo() && store.undo() && !store.undo())
    #expect(store.redo() && store.redo() && store.redo())
    try store.addNode(.node("m3", "number"))
    #expect(store.undo() && store.undo() && store.undo() && !store.undo())
    #expect(store.nodes.map(\.id) == ["m0"])
    // Shrinking keeps the newest steps, redo included.
    #expect(store.redo() && store.redo())
    store.undoCapacity = 1
    #expect(store.undo() && !store.undo())
    #expect(store.nodes.map(\.id) == ["m0", "m1"])
    #expect(store.redo() && store.redo() && !store.redo())  // the two undone steps, however small the ring
    #expect(store.nodes.map(\.id) == ["m0", "m1", "m2", "m3"])
    #expect(store.undo() && !store.undo())
    store.undoCapacity = 0
    try store.addNode(.node("z", "number"))
    #expect(!store.canUndo && !store.undo())
    store._checkInvariants()
  }
}
