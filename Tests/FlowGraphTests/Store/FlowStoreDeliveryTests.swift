import Foundation
import Testing

import FlowGraph
import FlowTestSupport

/// The calling thread, to tell which thread delivered a change.
private func threadID() -> UInt { UInt(pthread_self()) }

@Suite struct FlowStoreDeliveryTests {
  // main: addNode(n0) ─ deliver r1 ─ handler queues r2 … r51 ─ deliver r2 (50 left … ) ─ r51 (0 left)
  @Test func aDeliveredChangeIsReleasedAtOnce() throws {
    let store = FlowStore.testing()
    let retained = Locked<[Int: Int]>([:])
    let observation = store.observe { [weak store] change in
      guard let store else { return }
      if change.revision == 1 {
        for index in 1...50 { try? store.addNode(.node("n\(index)", "number")) }
      }
      retained.withLock { $0[change.revision] = store._deliveryCounts.retainedChanges }
    }.observation
    try store.addNode(.node("n0", "number"))
    let seen = retained.withLock { $0 }
    #expect(seen.count == 51)
    for revision in 1...51 { #expect(seen[revision] == 51 - revision, "while delivering r\(revision)") }
    #expect(store._deliveryCounts.retainedChanges == 0)
    withExtendedLifetime(observation) {}
    store._checkInvariants()
  }

  // A (test):   addNode(a) r1 ─ handler(r1) waits for r3 ··········· deliver r2 (help) ─ wake B ─ return
  // B (thread):            addNode(b1) r2: taken on by A ─ return
  //                        addNode(b2) r3: A has no help left ─ park ···················· deliver r3
  //                        addNode(b3) r4 ─ deliver r4
  @Test func aCallDeliversAtMostOneChangeOfAnotherThreadPerChangeOfItsOwn() async throws {
    let store = FlowStore.testing()
    let deliveries = Locked<[(revision: Int, thread: UInt)]>([])
    let observation = store.observe { [weak store] change in
      deliveries.withLock { $0.append((change.revision, threadID())) }
      if change.revision == 1 { while (store?.revision ?? 3) < 3 { sched_yield() } }
    }.observation
    let (finished, finish) = AsyncStream<UInt>.makeStream()
    let other = Thread {
      while store.revision < 1 { sched_yield() }
      for index in 1...3 { try? store.addNode(.node("b\(index)", "number")) }
      finish.yield(threadID())
      finish.finish()
    }
    other.start()
    try store.addNode(.node("a", "number"))
    let main = threadID()
    var iterator = finished.makeAsyncIterator()
    let otherID = try #require(await iterator.next())
    let seen = deliveries.withLock { $0 }
    #expect(seen.map(\.revision) == [1, 2, 3, 4])
    #expect(seen.map(\.thread) == [main, main, otherID, otherID])
    #expect(store._deliveryCounts.mostHelped == 1)
    #expect(store._deliveryCounts.retainedChanges == 0)
    withExtendedLifetime(observation) {}
    store._checkInvariants()
  }

  // task 1: updateNode × 2000 ─────▶   each call delivers its change and at most one of task 2's
  // task 2: updateNode × 2000 ─────▶   (and the other way round); the queue stays short
  @Test func twoMutatorsShareTheDeliveryAndTheQueueStaysShort() async throws {
    let store = FlowStore.testing()
    try store.addNode(.node("x", "number"))
    try store.addNode(.node("y", "number"))
    let log = Locked((revisions: [Int](), mostRetained: 0))
    let observation = store.observe { [weak store] change in
      let retained = store?._deliveryCounts.retainedChanges ?? 0
      log.withLock {
        $0.revisions.append(change.revision)
        $0.mostRetained = max($0.mostRetained, retained)
      }
    }.observation
    let perTask = 2_000
    await withTaskGroup(of: Void.self) { group in
      for id in ["x", "y"] {
        group.addTask {
          for index in 0..<perTask {
            var node = FlowNode.node(id, "number")
            node.position = CGPoint(x: Double(index + 1), y: 0)
            try? store.updateNode(node)
          }
        }
      }
    }
    let (revisions, mostRetained) = log.withLock { ($0.revisions, $0.mostRetained) }
    #expect(revisions.elementsEqual(3...(2 + 2 * perTask)), "\(revisions.count) deliveries")
    #expect(mostRetained <= 3)
    #expect(store._deliveryCounts.mostHelped <= 1)
    #expect(store._deliveryCounts.retainedChanges == 0)
    withExtendedLifetime(observation) {}
    store._checkInvariants()
  }
}
