import Testing

import FlowGraph
import FlowTestSupport

/// A gate an async guard awaits until the test opens it; `reached` yields each time a guard
/// arrives at it. No sleeping, no spinning.
private final class AsyncGate: Sendable {
  private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
  private let reachedContinuation: AsyncStream<Void>.Continuation
  let reached: AsyncStream<Void>

  init() { (reached, reachedContinuation) = AsyncStream<Void>.makeStream() }

  func wait() async {
    reachedContinuation.yield()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state -> Bool in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Streams the node ids of the operations submitted to `store.perform(_:)`, in submission order.
private func submissions(of store: FlowStore) -> AsyncStream<String> {
  let (stream, continuation) = AsyncStream<String>.makeStream()
  store._onSubmit = { operation in continuation.yield(operation.nodeIDs.first ?? operation.kind.rawValue) }
  return stream
}

@Suite struct FlowStoreQueueTests {
  // A: perform(add a) ─ async guard waits at the gate ······················ open ─ a applied
  // B:        perform(add b) ─ queued: its guard does not start ······················ guard(b), b applied
  // C:               perform(add c) ─ queued ··························································· guard(c), c applied
  // T: (the test) addNode(x) ─ applied at once, while A holds the turn
  @Test func performedOperationsRunOneAtATimeInSubmissionOrderWhileTheSyncAPIGoesOn() async throws {
    let store = FlowStore.testing()
    let gate = AsyncGate()
    let calls = LockedValue<[String]>([])
    store.addGuard(
      StoreGuard(
        "gate",
        asyncCheck: { operation in
          let id = operation.nodeIDs.first ?? "?"
          calls.withLock { $0.append(id) }
          if id == "a" { await gate.wait() }
          return .allow
        }))
    var submitted = submissions(of: store).makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()

    let a = Task { try await store.perform(.addNode(.node("a", "number"))) }
    await reached.next()
    #expect(await submitted.next() == "a")
    let b = Task { try await store.perform(.addNode(.node("b", "number"))) }
    #expect(await submitted.next() == "b")
    let c = Task { try await store.perform(.addNode(.node("c", "number"))) }
    #expect(await submitted.next() == "c")
    #expect(store._queuedOperationCount == 2)
    #expect(calls.value == ["a"])

    try store.addNode(.node("x", "number"))
    #expect(store.nodes.map(\.id) == ["x"])

    gate.open()
    for task in [a, b, c] { #expect(try await task.value) }
    #expect(calls.value == ["a", "b", "c"])
    #expect(store.nodes.map(\.id) == ["x", "a", "b", "c"])
    #expect(store.operationHistory.map(\.operation.nodeIDs) == [["x"], ["a"], ["b"], ["c"]])
    #expect(store.operationHistory.map(\.revision) == [1, 2, 3, 4])
    #expect(store._queuedOperationCount == 0)
    store._checkInvariants()
  }

  // blocker: perform(add blocker) ─ guard waits at the gate ·········· open ─ applied
  // s0…s19:    perform(add sᵢ) from 20 tasks at once ─ queued in whatever order they arrive
  // (test)     waits until all 20 are queued, opens the gate ─ they apply in exactly that order,
  //            never two guards at once
  // With 200 submitters the queue drops the handed-out prefix of its waiters while still busy.
  @Test(arguments: [20, 200])
  func concurrentSubmittersAreAppliedInTheOrderTheyWereQueued(count: Int) async throws {
    let store = FlowStore.testing()
    let gate = AsyncGate()
    let running = LockedValue((now: 0, most: 0))
    store.addGuard(
      StoreGuard(
        "serial",
        asyncCheck: { operation in
          running.withLock {
            $0.now += 1; $0.most = max($0.most, $0.now)
          }
          if operation.nodeIDs == ["blocker"] { await gate.wait() }
          await Task.yield()  // give another guard every chance to overlap
          running.withLock { $0.now -= 1 }
          return .allow
        }))
    var submitted = submissions(of: store).makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    let blocker = Task { try await store.perform(.addNode(.node("blocker", "number"))) }
    await reached.next()
    #expect(await submitted.next() == "blocker")

    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask { try await store.perform(.addNode(.node("s\(index)", "number"))) }
      }
      var queued: [String] = []
      for _ in 0..<count { queued.append(await submitted.next()!) }
      #expect(Set(queued).count == count)
      #expect(store._queuedOperationCount == count)
      gate.open()
      try await group.waitForAll()
      #expect(store.nodes.map(\.id) == ["blocker"] + queued)
    }
    #expect(try await blocker.value)
    #expect(running.value.most == 1)
    #expect(store.revision == count + 1)
    store._checkInvariants()
  }

  // A: perform(remove a) ─ async guard vetoes ─ throws; nothing changes; turn passes
  // B:        perform(add b) ─ queued behind A ─ its guard reads the store (no deadlock) ─ applied
  @Test func anAsyncVetoBlocksOnlyItsOperationAndIsRecorded() async throws {
    let (store, recorder) = StoreFixtures.calculatorStore()
    let gate = AsyncGate()
    let sawNodes = LockedValue<[String]>([])
    store.addGuard(
      StoreGuard(
        "review",
        asyncCheck: { operation in
          if operation.kind == .removeNode {
            await gate.wait()
            return .veto("removals need review")
          }
          sawNodes.withLock { $0 = store.nodes.map(\.id) }  // outside the lock: reading is fine
          return .allow
        }))
    var submitted = submissions(of: store).makeAsyncIterator()
    var reached = gate.reached.makeAsyncIterator()
    let before = StoreContents(store)
    let a = Task { try await store.perform(.removeNode(id: "a")) }
    await reached.next()
    _ = await submitted.next()
    let b = Task { try await store.perform(.addNode(.node("b2", "number"))) }
    _ = await submitted.next()
    gate.open()

    let result = await a.result
    guard case .failure(let error as GraphValidationError) = result else {
      Issue.record("expected a veto, got \(result)")
      return
    }
    #expect(error.issues.map(\.code) == [.vetoed])
    #expect(error.description == "guard 'review' blocked removeNode [a]: removals need review")
    #expect(try await b.value)
    #expect(sawNodes.value == before.nodes.map(\.id))
    #expect(store.nodes.map(\.id) == before.nodes.map(\.id) + ["b2"])
    #expect(recorder.drain().nodeChanges == [[.add(.node("b2", "number"))]])
    #expect(
      store.operationHistory.map(\.outcome) == [.blocked(guard: "review", reason: "removals need review"), .applied])
  }

  @Test func performedUndoAndRedoMeetTheAsyncGuardsToo() async throws {
    let store = FlowStore.testing()
    try store.addNode(.node("a", "number"))
    store.addGuard(StoreGuard("no-undo", asyncCheck: { $0.kind == .undo ? .veto("undo is off") : .allow }))
    await #expect(throws: GraphValidationError.self) { try await store.perform(.undo) }
    #expect(store.canUndo && store.node(id: "a") != nil)
    #expect(store.undo())  // the synchronous API does not wait for async guards
    #expect(try await store.perform(.redo))
    #expect(try await !store.perform(.redo))
    #expect(store.nodes.map(\.id) == ["a"])
  }
}
