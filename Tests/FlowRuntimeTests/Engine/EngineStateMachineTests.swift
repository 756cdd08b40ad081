import FlowGraph
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Every interleaving of the engine's inputs as plain calls on its state machine: no threads,
/// no tasks. A waiter is an `Int` token; the evaluator a stub that says whether it has work.
@Suite struct EngineStateMachineTests {
  struct StubEvaluator: ParkedEvaluator {
    var hasPendingWork: Bool
    var admitsSynchronousPasses = true
  }

  typealias Machine = EngineStateMachine<StubEvaluator, Int>

  static func report(_ revision: Int, cancelled: Bool = false) -> EvaluationReport {
    EvaluationReport(
      revision: revision, wasCancelled: cancelled, duration: .zero, nodeIDs: [], ran: [], cutOff: [],
      failed: [], failureMessages: [], durations: [:])
  }

  static func change(_ revision: Int) -> FlowStoreChange { FlowStoreChange(revision: revision, items: []) }

  /// A started machine whose first pass is taken: returns the machine and the pass's work.
  static func running(replaces: Bool = true) -> (Machine, Machine.Work) {
    var machine = Machine(revision: 0, replacesRunningPass: replaces)
    #expect(machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner)
    guard case .run(let work) = machine.takeWork() else { preconditionFailure("no work") }
    return (machine, work)
  }

  static func resumed(_ action: Machine.RunnerAction) -> [Int]? {
    if case .becomeIdle(let waiters, _) = action { return waiters }
    return nil
  }

  /// ```
  /// runner: take ─ run ─ publish(r0) ──────────────── take → idle
  /// waiter:                          evaluate(r0) ─┘   (registered in the window)
  /// ```
  @Test func aWaiterArrivingBetweenPublicationAndIdleIsResumedWhenTheRunnerGoesIdle() {
    var (machine, work) = Self.running()
    let publication = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.publishesValues && publication.resumed.isEmpty)
    guard case .queued = machine.waiterArrived(7, revision: 0) else {
      Issue.record("a waiter arriving while the runner is active is queued")
      return
    }
    #expect(Self.resumed(machine.takeWork()) == [7])
    #expect(machine.phase == .idle)
    machine._checkInvariants()
  }

  /// ```
  /// init: start ─ (runner not yet scheduled)
  /// waiter: evaluate(r0) ── queued
  /// runner:               take ─ run ─ publish(r0) → resumes the waiter
  /// ```
  @Test func theFirstEvaluateAfterStartWaitsForTheFirstPass() {
    var machine = Machine(revision: 0, replacesRunningPass: true)
    #expect(machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner)
    guard case .queued = machine.waiterArrived(1, revision: 0) else {
      Issue.record("the first pass has not run")
      return
    }
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the first pass is work")
      return
    }
    let publication = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.resumed == [1])
    #expect(Self.resumed(machine.takeWork()) == [])
  }

  @Test func anIdleEngineWithTheRevisionCompleteAnswersAtOnce() {
    var (machine, work) = Self.running()
    _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    _ = machine.takeWork()
    guard case .resume(let report) = machine.waiterArrived(3, revision: 0) else {
      Issue.record("revision 0 is complete and the engine idle")
      return
    }
    #expect(report?.revision == 0)
  }

  /// ```
  /// runner: take(r0) ─ run ──────────── publish(r0, completed) → superseded, publishes no values
  /// store:              change(r1) ─┘ (signal)
  /// runner:                                                     take(r1) ─ run ─ publish(r1)
  /// ```
  @Test func aChangeDuringAPassSupersedesItEvenIfItCompletes() {
    var (machine, work) = Self.running()
    guard case .queued = machine.waiterArrived(5, revision: 0) else {
      Issue.record("waits for the first pass")
      return
    }
    #expect(machine.received(Self.change(1)) == .signalSupersession)
    let first = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(!first.publishesValues)
    #expect(first.report.wasCancelled)
    #expect(first.resumed.isEmpty, "a superseded pass settles no waiter: its revision was overtaken")
    guard case .run(let next) = machine.takeWork() else {
      Issue.record("the change is work")
      return
    }
    #expect(next.revision == 1 && next.changes.count == 1)
    let second = machine.passFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(second.publishesValues && second.resumed == [5])
    #expect(machine.completedRevision == 1)
  }

  @Test func queueingPolicyLetsTheRunningPassPublish() {
    var (machine, work) = Self.running(replaces: false)
    #expect(machine.received(Self.change(1)) == .none)
    let first = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(first.publishesValues)
    guard case .run(let next) = machine.takeWork() else {
      Issue.record("the change is work")
      return
    }
    #expect(next.revision == 1)
  }

  @Test func shutdownResumesWaitersWithNilAndAnswersLaterOnesWithNil() {
    var (machine, work) = Self.running()
    _ = machine.waiterArrived(1, revision: 0)
    _ = machine.waiterArrived(2, revision: 0)
    let (waiters, active) = machine.shutDown()
    #expect(Set(waiters) == [1, 2] && active)
    guard case .resume(nil) = machine.waiterArrived(3, revision: 0) else {
      Issue.record("a waiter after shutdown gets nil")
      return
    }
    #expect(machine.received(Self.change(1)) == .none)
    let publication = machine.passFinished(
      Self.report(work.revision, cancelled: true), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.resumed.isEmpty)
    #expect(Self.resumed(machine.takeWork()) == [])
  }

  @Test func readersWaitForTheRunningPass() {
    var (machine, work) = Self.running()
    let reads = Locked<[Bool]>([])
    #expect(machine.readerArrived { evaluator in { reads.withLock { $0.append(evaluator.hasPendingWork) } } } == nil)
    let publication = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.readers.count == 1)
    publication.readers.forEach { $0() }
    #expect(reads.withLock { $0 } == [false])
    let immediate = machine.readerArrived { _ in {} }
    #expect(immediate != nil)
  }

  @Test func aTriggerStartsTheRunnerAndWaitersWaitForItsPass() {
    var (machine, work) = Self.running()
    _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    _ = machine.takeWork()
    #expect(machine.triggered("x") == .startRunner)
    guard case .queued = machine.waiterArrived(4, revision: 0) else {
      Issue.record("the triggered pass is pending")
      return
    }
    guard case .run(let next) = machine.takeWork() else {
      Issue.record("the trigger is work")
      return
    }
    #expect(next.triggers == ["x"])
    #expect(machine.passFinished(Self.report(0), evaluator: StubEvaluator(hasPendingWork: false)).resumed == [4])
  }

  /// Random interleavings of every input with a runner that steps when the schedule says so:
  /// the invariants hold after each step, and once the runner drains its work every waiter
  /// whose revision arrived has been resumed, each exactly once (no lost or double wake-ups).
  @Test(arguments: 0..<300) func randomInterleavingsNeverLoseAWakeUp(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let replaces = random.next() % 2 == 0
    var machine = Machine(revision: 0, replacesRunningPass: replaces)
    var storeRevision = 0
    var runnerActive = machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner
    var inPass: Machine.Work?
    var resumed: [Int: Int] = [:]
    var waiterRevision: [Int: Int] = [:]
    var nextWaiter = 0
    func resume(_ waiters: [Int]) { for waiter in waiters { resumed[waiter, default: 0] += 1 } }
    func runnerStep() {
      if let work = inPass {
        inPass = nil
        let cancelled = random.next() % 5 == 0
        resume(
          machine.passFinished(
            Self.report(work.revision, cancelled: cancelled),
            evaluator: StubEvaluator(hasPendingWork: cancelled && random.next() % 2 == 0)
          ).resumed)
      } else {
        switch machine.takeWork() {
        case .run(let work): inPass = work
        case .becomeIdle(let waiters, _):
          resume(waiters)
          runnerActive = false
        }
      }
    }
    for _ in 0..<60 {
      switch random.next() % 4 {
      case 0:
        storeRevision += 1
        if machine.received(Self.change(storeRevision)) == .startRunner { runnerActive = true }
      case 1:
        if machine.triggered("n") == .startRunner { runnerActive = true }
      case 2:
        nextWaiter += 1
        waiterRevision[nextWaiter] = storeRevision
        if case .resume = machine.waiterArrived(nextWaiter, revision: storeRevision) { resume([nextWaiter]) }
      default:
        if runnerActive { runnerStep() }
      }
      machine._checkInvariants()
    }
    while runnerActive { runnerStep() }
    machine._checkInvariants()
    #expect(machine.phase == .idle)
    #expect(machine.completedRevision == storeRevision)
    for waiter in 1...max(1, nextWaiter) where waiterRevision[waiter] != nil {
      #expect(
        resumed[waiter] == 1,
        "waiter \(waiter) for revision \(waiterRevision[waiter]!) resumed \(resumed[waiter] ?? 0) times")
    }
  }
}
