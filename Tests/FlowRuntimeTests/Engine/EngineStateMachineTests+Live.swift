import FlowGraph
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// The live transitions of the engine's state machine, as plain calls: the bounded emission
/// buffer and back-pressure, arrival order, emissions put back by stopped passes, sources
/// ending, observers, quiescence.
extension EngineStateMachineTests {
  static func emission(_ token: UInt64, _ value: Double) -> LiveEmission {
    LiveEmission(token: token, node: Int32(token), outputs: [.number(value)], state: .number(value))
  }

  /// A started machine whose first pass was published and whose runner went idle.
  static func afterFirstPass(_ machine: inout Machine) {
    _ = machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0)
    guard case .run(let work) = machine.takeWork() else { preconditionFailure("no first pass") }
    _ = machine.passFinished(report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    guard case .becomeIdle = machine.takeWork() else { preconditionFailure("not idle after the first pass") }
  }

  /// A started, idle machine with sources 1 and 2 registered.
  static func idleWithSources(capacity: Int = 4) -> Machine {
    var machine = Machine(revision: 0, replacesRunningPass: true, emissionCapacity: capacity)
    afterFirstPass(&machine)
    machine.sourceStarted(1)
    machine.sourceStarted(2)
    return machine
  }

  static func work(_ machine: inout Machine) -> Machine.Work? {
    if case .run(let work) = machine.takeWork() { return work }
    return nil
  }

  @Test func anEmissionStartsTheRunnerAndEachEmissionIsAPassInArrivalOrder() {
    var machine = Self.idleWithSources()
    guard case .accepted(.startRunner) = machine.emitted(Self.emission(1, 10)) else {
      Issue.record("the first emission starts the runner")
      return
    }
    guard case .accepted(.none) = machine.emitted(Self.emission(2, 20)) else {
      Issue.record("an emission while running does not supersede the pass")
      return
    }
    _ = machine.emitted(Self.emission(1, 11))
    var seen: [Double] = []
    while let work = Self.work(&machine) {
      seen.append(work.emission?.outputs.first?.numberValue ?? -1)
      _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
      machine._checkInvariants()
    }
    #expect(seen == [10, 20, 11])
    #expect(machine.processedEmissions == 3)
    #expect(machine.phase == .idle)
  }

  @Test func aFullBufferSuspendsTheSourceUntilTheRunnerDrainsIt() {
    var machine = Self.idleWithSources(capacity: 4)
    for value in 0..<4 { _ = machine.emitted(Self.emission(1, Double(value))) }
    guard case .full = machine.emitted(Self.emission(1, 4)) else {
      Issue.record("a fifth emission finds the buffer full")
      return
    }
    let resumed = Locked<[Bool]>([])
    guard case .suspended = machine.emitted(Self.emission(1, 4), resume: { ok in resumed.withLock { $0.append(ok) } })
    else {
      Issue.record("with a resume closure the emission is held")
      return
    }
    #expect(machine.queuedEmissionCount == 4, "the buffer never exceeds its capacity")
    var values: [Double] = []
    while let work = Self.work(&machine) {
      #expect(machine.queuedEmissionCount <= 4)
      for resume in work.resumeProducers { resume(true) }
      values.append(work.emission?.outputs.first?.numberValue ?? -1)
      _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    }
    #expect(values == [0, 1, 2, 3, 4], "nothing is dropped, order is kept")
    #expect(resumed.withLock { $0 } == [true])
  }

  @Test func stoppingASuspendedSourceReleasesItWithoutItsEmission() {
    var machine = Self.idleWithSources(capacity: 1)
    _ = machine.emitted(Self.emission(1, 0))
    let resumed = Locked<[Bool]>([])
    _ = machine.emitted(Self.emission(1, 1), resume: { ok in resumed.withLock { $0.append(ok) } })
    for resume in machine.sourceStopped(1) { resume(false) }
    #expect(resumed.withLock { $0 } == [false])
    guard case .rejected = machine.emitted(Self.emission(1, 2)) else {
      Issue.record("a stopped source's emissions are rejected")
      return
    }
  }

  @Test func aStoppedPassPutsItsEmissionBackAtTheHead() {
    var machine = Self.idleWithSources()
    _ = machine.emitted(Self.emission(1, 1))
    _ = machine.emitted(Self.emission(1, 2))
    guard let first = Self.work(&machine) else { return }
    _ = machine.received(Self.change(1))
    _ = machine.passFinished(
      Self.report(first.revision, cancelled: true), evaluator: StubEvaluator(hasPendingWork: true))
    #expect(machine.processedEmissions == 0, "a stopped pass did not process its emission")
    guard let retry = Self.work(&machine) else { return }
    #expect(retry.emission?.outputs == [.number(1)], "the next pass sees the same emission, once")
    #expect(retry.changes.count == 1, "with the change that superseded it")
    _ = machine.passFinished(Self.report(retry.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(machine.processedEmissions == 1)
    #expect(Self.work(&machine)?.emission?.outputs == [.number(2)])
  }

  @Test func quiescenceWaitsForEverySourceToEndAndItsEmissionsToBeProcessed() {
    var machine = Self.idleWithSources()
    let settled = Locked(0)
    #expect(!machine.quiescenceWaiterArrived { settled.withLock { $0 += 1 } })
    _ = machine.emitted(Self.emission(1, 1))
    _ = machine.sourceEnded(LiveEmission(token: 1, node: 1, event: .finished))
    for resume in machine.sourceStopped(2) { resume(false) }
    while let work = Self.work(&machine) {
      _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
      #expect(machine.takeSettledQuiescence().isEmpty, "not before the engine is idle")
    }
    for resume in machine.takeSettledQuiescence() { resume() }
    #expect(settled.withLock { $0 } == 1)
    #expect(machine.sources.isEmpty)
  }

  @Test func anEmissionLimitStopsTakingEmissionsAfterTheRunningPass() {
    var machine = Self.idleWithSources()
    for value in 0..<3 { _ = machine.emitted(Self.emission(1, Double(value))) }
    guard let work = Self.work(&machine) else { return }
    _ = machine.limitEmissions(to: machine.processedEmissions)
    _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(Self.work(&machine) == nil, "no further emission is taken")
    #expect(machine.quiescenceWaiterArrived {}, "the engine is quiescent at once")
    #expect(machine.queuedEmissionCount == 2)
  }

  /// `flow run --live --follow` steps one emission at a time: raising the limit of an idle
  /// engine with queued emissions starts the runner, and the next pass takes exactly one.
  @Test func raisingTheLimitOfAnIdleEngineTakesTheQueuedEmissions() {
    var machine = Self.idleWithSources()
    _ = machine.limitEmissions(to: 0)
    for value in 0..<3 { _ = machine.emitted(Self.emission(1, Double(value))) }
    #expect(machine.phase == .idle, "nothing to take below the limit: no runner")
    #expect(machine.limitEmissions(to: 1) == .startRunner)
    guard let work = Self.work(&machine) else { return }
    #expect(work.emission?.outputs == [.number(0)])
    _ = machine.passFinished(Self.report(work.revision), evaluator: StubEvaluator(hasPendingWork: false))
    #expect(Self.work(&machine) == nil, "one emission per raise")
    #expect(machine.queuedEmissionCount == 2)
  }

  @Test func anObservationIsWorkForTheNextPass() {
    var machine = Machine(revision: 0, replacesRunningPass: true)
    Self.afterFirstPass(&machine)
    #expect(machine.observationChanged("x", delta: 1) == .startRunner)
    let work = Self.work(&machine)
    #expect(work?.observations.map(\.id) == ["x"])
  }
}
