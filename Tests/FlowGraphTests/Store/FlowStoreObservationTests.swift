import Testing

import FlowGraph
import FlowTestSupport

@Suite struct FlowStoreObservationTests {
  @Test func observeReturnsTheSnapshotAndDeliversOnlyLaterChanges() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    try store.addNode(.node("t", "number"))
    var transient = FlowNode.node("ghost", "number")
    transient.persistence = .transient
    try store.addNode(transient)
    let seen = Locked<[Int]>([])
    let (snapshot, revision, observation) = store.observe { change in seen.withLock { $0.append(change.revision) } }
    #expect(revision == 2)
    #expect(snapshot.nodes.map(\.id) == ["a", "b", "sum", "p", "show", "t", "ghost"])
    #expect(snapshot.edges == store.edges)
    try store.removeNode(id: "t")
    store.undo()
    #expect(seen.withLock { $0 } == [3, 4])
    observation.cancel()
    observation.cancel()
    try store.removeNode(id: "t")
    #expect(seen.withLock { $0 } == [3, 4])
  }

  @Test func releasingTheObservationUnsubscribes() throws {
    let (store, _) = StoreFixtures.calculatorStore()
    let count = Locked(0)
    do {
      let observation = store.observe { _ in count.withLock { $0 += 1 } }.observation
      try store.removeEdge(id: "e1")
      withExtendedLifetime(observation) {}
    }
    try store.removeEdge(id: "e2")
    #expect(count.withLock { $0 } == 1)
  }

  @Test func aHandlerMayMutateTheStoreAndItsChangeFollows() throws {
    // main thread: removeEdge(e1) ─ deliver rev 1 ─ handler: removeEdge(e2) (queued) ─ deliver rev 2 ─ return
    let (store, _) = StoreFixtures.calculatorStore()
    let seen = Locked<[[EdgeChange]]>([])
    store.onEdgesChange = { [weak store] changes in
      seen.withLock { $0.append(changes) }
      if changes == [.remove(id: "e1")] { try? store?.removeEdge(id: "e2") }
    }
    try store.removeEdge(id: "e1")
    #expect(seen.withLock { $0 } == [[.remove(id: "e1")], [.remove(id: "e2")]])
    #expect(store.revision == 2)
  }

  @Test func concurrentMutatorsDeliverEveryChangeInRevisionOrder() async throws {
    // task 1..8: addNode / addEdge / removeEdge, interleaved arbitrarily; whichever task is
    // delivering hands every queued change to the handlers in revision order.
    let store = FlowStore.testing()
    let revisions = Locked<[Int]>([])
    let nodeCalls = Locked(0)
    let observation = store.observe { change in revisions.withLock { $0.append(change.revision) } }.observation
    store.onNodesChange = { _ in nodeCalls.withLock { $0 += 1 } }
    let tasks = 8
    let perTask = 40
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask {
          for index in 0..<perTask {
            try? store.addNode(.node("t\(task)-\(index)", "identity"))
            if index > 0 {
              try? store.addEdge(.edge("t\(task)-e\(index)", "t\(task)-\(index - 1)", "t\(task)-\(index)"))
            }
            if index % 5 == 4 { try? store.removeEdge(id: "t\(task)-e\(index - 2)") }
          }
        }
      }
    }
    let expected = tasks * (perTask + (perTask - 1) + perTask / 5)
    #expect(store.revision == expected)
    #expect(revisions.withLock { $0 } == Array(1...expected))
    #expect(nodeCalls.withLock { $0 } == tasks * perTask)
    withExtendedLifetime(observation) {}
    store._checkInvariants()
  }

  @Test func aSnapshotPlusTheChangesAfterItIsTheFinalGraph() async throws {
    // tasks 1..4 mutate ──────────────────────────────────────────────▶
    // task 5:           observe() = snapshot @ r + changes r+1, r+2, … ▶ replayed == final graph
    let store = FlowStore.testing()
    let received = LockedValue<[FlowStoreChange]>([])
    let start = LockedValue<(snapshot: FlowDocument, revision: Int, observation: FlowStore.Observation)?>(nil)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for index in 0..<50 {
            try? store.addNode(.node("t\(task)-\(index)", "identity"))
            if index > 0 {
              try? store.addEdge(.edge("t\(task)-e\(index)", "t\(task)-\(index - 1)", "t\(task)-\(index)"))
            }
            if index % 7 == 6 { try? store.removeNode(id: "t\(task)-\(index - 3)") }
          }
        }
      }
      group.addTask {
        for _ in 0..<100 { try? store.addNode(.node("filler-\(UInt64.random(in: 0...UInt64.max))", "number")) }
        let observed = store.observe { change in received.withLock { $0.append(change) } }
        start.withLock { $0 = observed }
      }
    }
    let (snapshot, revision, observation) = try #require(start.withLock { $0 })
    let changes = received.withLock { $0 }
    #expect(changes.map(\.revision) == Array((revision + 1)..<(revision + 1 + changes.count)))
    var nodes = snapshot.nodes.map(\.id)
    var edges = snapshot.edges.map(\.id)
    for item in changes.flatMap(\.items) {
      switch item {
      case .node(.add(let node)): nodes.append(node.id)
      case .node(.remove(let id)): nodes.removeAll { $0 == id }
      case .edge(.add(let edge)): edges.append(edge.id)
      case .edge(.remove(let id)): edges.removeAll { $0 == id }
      default: break
      }
    }
    #expect(revision + changes.count == store.revision)
    #expect(nodes == store.nodes.map(\.id))
    #expect(edges == store.edges.map(\.id))
    withExtendedLifetime(observation) {}
  }
}
