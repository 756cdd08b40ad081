import FlowGraph
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// The synchronous-pass transitions (`EngineStateMachine+Synchronous.swift`) as plain calls.
extension EngineStateMachineTests {
  /// A machine (synchronous passes of up to `limit` items) whose first pass was published and
  /// whose runner went idle.
  static func idle(limit: Int = 8, replaces: Bool = true, admits: Bool = true) -> Machine {
    var machine = Machine(revision: 0, replacesRunningPass: replaces, synchronousPassLimit: limit)
    _ = machine.started(with: StubEvaluator(hasPendingWork: true, admitsSynchronousPasses: admits), revision: 0)
    guard case .run(let work) = machine.takeWork() else { preconditionFailure("no first pass") }
    _ = machine.passFinished(
      report(work.revision), evaluator: StubEvaluator(hasPendingWork: false, admitsSynchronousPasses: admits))
    _ = machine.takeWork()
    return machine
  }

  static func change(_ revision: Int, items: Int) -> FlowStoreChange {
    FlowStoreChange(revision: revision, items: Array(repeating: .node(.remove(id: "n\(revision)")), count: items))
  }

  /// Runs `received(_:handingOver:)`; returns the work if the pass is synchronous.
  static func receive(_ machine: inout Machine, _ change: FlowStoreChange) -> Machine.Work? {
    var taken: StubEvaluator?
    let action = machine.received(change, handingOver: &taken)
    guard case .runSynchronously(let work) = action else {
      #expect(taken == nil, "a queued change hands nothing over")
      return nil
    }
    #expect(taken != nil, "a synchronous pass holds the evaluator")
    return work
  }

  /// ```
  /// store thread: change r1 ─ pass r1 (this thread) ─ publish r1 → idle
  /// waiter:                └ evaluate(r1): queued ┘ resumed by the publication
  /// ```
  @Test func aCheapChangeOnAnIdleEngineRunsOnTheDeliveringThreadAndPublishes() throws {
    var machine = Self.idle()
    let work = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    #expect(work.revision == 1 && work.changes.count == 1 && work.triggers.isEmpty)
    #expect(machine.phase == .runningSynchronously && machine.parked == nil)
    machine._checkInvariants()
    guard case .queued = machine.waiterArrived(5, revision: 1) else {
      Issue.record("a waiter during a synchronous pass waits for it")
      return
    }
    let finish = machine.synchronousPassFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    let publication = try #require(finish.publication)
    #expect(publication.publishesValues && publication.resumed == [5])
    #expect(finish.action == .none && machine.phase == .idle)
    #expect(machine.completedRevision == 1 && machine.lastReport?.revision == 1)
    guard case .resume(let report) = try #require(machine.settledWaiter(revision: 1)) else {
      Issue.record("revision 1 is complete: evaluate() answers without waiting")
      return
    }
    #expect(report?.revision == 1)
    machine._checkInvariants()
  }

  @Test func changesThatAreNotCheapQueueForTheRunner() {
    // Off (limit 0), too many items, a reload, an evaluator with expensive or live nodes.
    var off = Self.idle(limit: 0)
    #expect(Self.receive(&off, Self.change(1, items: 1)) == nil)
    #expect(off.phase == .running)
    var big = Self.idle(limit: 2)
    #expect(Self.receive(&big, Self.change(1, items: 3)) == nil)
    #expect(big.phase == .running)
    var reload = Self.idle()
    #expect(Self.receive(&reload, FlowStoreChange(revision: 1, reloadedDocument: FlowDocument(), items: [])) == nil)
    #expect(reload.phase == .running)
    var expensive = Self.idle(admits: false)
    #expect(Self.receive(&expensive, Self.change(1, items: 1)) == nil)
    #expect(expensive.phase == .running)
    for machine in [off, big, reload, expensive] { machine._checkInvariants() }
  }

  /// ```
  /// runner: pass r0 ───────────── (superseded)
  /// store:        change r1 → queued, supersedes: never synchronous while a runner exists
  /// ```
  @Test func aChangeDuringARunnersPassIsQueuedNotSynchronous() {
    var (machine, _) = Self.running()
    var taken: StubEvaluator?
    guard case .queued(let action) = machine.received(Self.change(1), handingOver: &taken) else {
      Issue.record("the runner holds the evaluator")
      return
    }
    #expect(action == .signalSupersession && taken == nil)
    machine._checkInvariants()
  }

  /// ```
  /// store thread: change r1 ─ pass r1 ─────────── publish r1 ─ start runner
  /// other thread:        trigger, observer ┘ (queue; no supersession)   runner: pass for them
  /// ```
  @Test func inputsDuringASynchronousPassQueueWithoutSupersedingIt() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    #expect(machine.triggered("n") == .none)
    #expect(machine.observationChanged("n", delta: 1) == .none)
    machine._checkInvariants()
    let finish = machine.synchronousPassFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(finish.publication?.publishesValues == true, "a trigger is no newer revision: the pass publishes")
    #expect(finish.action == .startRunner && machine.phase == .running)
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the trigger is the runner's work")
      return
    }
    #expect(work.triggers == ["n"] && work.observations.count == 1 && work.continuing == nil)
    machine._checkInvariants()
  }

  /// ```
  /// store thread: change r1 ─ pass r1 ··· budget spent: stop ─ hand over ─ start runner
  /// waiter:                                evaluate(r1) ┘ (still waiting)
  /// runner:                                                  pass r1 (continuing) ─ publish r1
  /// ```
  @Test func aPassStoppedAtItsBudgetHandsTheRestToTheRunner() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    guard case .queued = machine.waiterArrived(9, revision: 1) else {
      Issue.record("queued")
      return
    }
    let stopped = Self.report(1, cancelled: true)
    let finish = machine.synchronousPassFinished(stopped, evaluator: StubEvaluator(hasPendingWork: true))
    #expect(finish.publication == nil, "a handed-over pass publishes nothing, not even its report")
    #expect(finish.action == .startRunner && machine.phase == .running)
    machine._checkInvariants()
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the rest is the runner's work")
      return
    }
    #expect(work.continuing?.revision == 1 && work.continuing?.wasCancelled == true)
    #expect(work.revision == 1 && work.changes.isEmpty)
    let publication = machine.passFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.resumed == [9])
    #expect(Self.resumed(machine.takeWork()) == [])
    machine._checkInvariants()
  }

  /// A lazy pass stopped at its budget can leave no node dirty (it stopped at an eagerly
  /// needed `if` whose inputs did not change). The revision is still unpublished, so the
  /// runner runs once more and publishes it; before, the engine went idle and `evaluate()`
  /// for that revision waited forever (seen under ThreadSanitizer, where passes are slow).
  /// ```
  /// store thread: change r1 ─ pass r1 stops, nothing dirty ─ runner: empty pass r1 → publish
  /// waiter:                └ evaluate(r1): queued ────────────────────────────────┘ resumed
  /// ```
  @Test func aPassStoppedWithNothingDirtyStillHasItsRevisionPublished() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    guard case .queued = machine.waiterArrived(9, revision: 1) else {
      Issue.record("queued")
      return
    }
    let finish = machine.synchronousPassFinished(
      Self.report(1, cancelled: true), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(finish.publication == nil, "nothing is published before the revision is complete")
    #expect(finish.action == .startRunner && machine.phase == .running, "the unpublished revision is work")
    machine._checkInvariants()
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the runner completes the revision")
      return
    }
    #expect(work.revision == 1 && work.continuing?.wasCancelled == true)
    let publication = machine.passFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.publishesValues && publication.resumed == [9])
    #expect(Self.resumed(machine.takeWork()) == [])
    #expect(machine.phase == .idle)
    guard case .resume(let report)? = machine.settledWaiter(revision: 1) else {
      Issue.record("revision 1 is complete")
      return
    }
    #expect(report?.revision == 1)
    machine._checkInvariants()
  }

  /// The same for a pass the core declined (`nil` report) after applying a change that left
  /// no node dirty.
  @Test func aDeclinedPassWithNothingDirtyStillHasItsRevisionPublished() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    let finish = machine.synchronousPassFinished(nil, evaluator: StubEvaluator(hasPendingWork: false))
    #expect(finish.action == .startRunner)
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the runner completes the revision")
      return
    }
    #expect(work.continuing == nil)
    let publication = machine.passFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(publication.publishesValues && machine.completedRevision == 1)
    #expect(Self.resumed(machine.takeWork()) == [])
    machine._checkInvariants()
  }

  @Test func aDeclinedPassGoesToTheRunnerWithNothingToContinue() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    let finish = machine.synchronousPassFinished(nil, evaluator: StubEvaluator(hasPendingWork: true))
    #expect(finish.publication == nil && finish.action == .startRunner)
    guard case .run(let work) = machine.takeWork() else {
      Issue.record("the declined pass is the runner's work")
      return
    }
    #expect(work.continuing == nil && work.revision == 1)
  }

  @Test func readersDuringASynchronousPassAreServedWhenItFinishes() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    let served = Locked<[Bool]>([])
    #expect(machine.readerArrived { evaluator in { served.withLock { $0.append(evaluator.hasPendingWork) } } } == nil)
    let finish = machine.synchronousPassFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: false))
    for deliver in finish.readers + (finish.publication?.readers ?? []) { deliver() }
    #expect(served.withLock { $0 } == [false])
  }

  @Test func shutdownDuringASynchronousPassPublishesNothingAndStartsNoRunner() throws {
    var machine = Self.idle()
    _ = try #require(Self.receive(&machine, Self.change(1, items: 1)))
    guard case .queued = machine.waiterArrived(3, revision: 1) else {
      Issue.record("queued")
      return
    }
    #expect(machine.shutDown().waiters == [3])
    let finish = machine.synchronousPassFinished(
      Self.report(1, cancelled: true), evaluator: StubEvaluator(hasPendingWork: true))
    #expect(finish.publication == nil && finish.action == .none && machine.phase == .shutDown)
    machine._checkInvariants()
  }

  /// Random interleavings with synchronous passes: store changes (one delivery at a time, as
  /// the store does) that run synchronously when cheap and finish completed, stopped or
  /// declined; triggers, waiters and runner steps in between. The invariants hold after every
  /// step; in the end every waiter was resumed exactly once and every revision completed.
  @Test(arguments: 0..<300) func randomInterleavingsWithSynchronousPassesNeverLoseAWakeUp(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var machine = Machine(revision: 0, replacesRunningPass: random.next() % 2 == 0, synchronousPassLimit: 2)
    var storeRevision = 0
    var runnerActive = machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner
    var inPass: Machine.Work?
    var inSynchronousPass: Machine.Work?
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
    func finishSynchronousPass(_ work: Machine.Work) {
      let report: EvaluationReport?
      switch random.next() % 4 {
      case 0: report = nil  // declined
      case 1: report = Self.report(work.revision, cancelled: true)  // stopped at its budget
      default: report = Self.report(work.revision)
      }
      // A stopped or declined pass may leave no node dirty (a lazy pass stopped at an `if`).
      let leavesWork = report?.wasCancelled != false && random.next() % 2 == 0
      let finish = machine.synchronousPassFinished(report, evaluator: StubEvaluator(hasPendingWork: leavesWork))
      resume(finish.publication?.resumed ?? [])
      if finish.action == .startRunner { runnerActive = true }
    }
    for _ in 0..<80 {
      switch random.next() % 5 {
      case 0:
        if let work = inSynchronousPass {
          inSynchronousPass = nil
          finishSynchronousPass(work)
        } else {
          storeRevision += 1
          var taken: StubEvaluator?
          switch machine.received(Self.change(storeRevision, items: Int(random.next() % 4)), handingOver: &taken) {
          case .runSynchronously(let work): inSynchronousPass = work
          case .queued(let action): if action == .startRunner { runnerActive = true }
          }
        }
      case 1:
        if machine.triggered("n") == .startRunner { runnerActive = true }
      case 2:
        nextWaiter += 1
        waiterRevision[nextWaiter] = storeRevision
        if case .resume = machine.waiterArrived(nextWaiter, revision: storeRevision) { resume([nextWaiter]) }
      default:
        if runnerActive { runnerStep() }
      }
      #expect(!(runnerActive && inSynchronousPass != nil), "a synchronous pass and a runner never coexist")
      machine._checkInvariants()
    }
    if let work = inSynchronousPass { finishSynchronousPass(work) }
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
