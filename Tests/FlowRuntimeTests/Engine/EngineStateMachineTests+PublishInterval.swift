@testable import FlowRuntime
import Testing

// `EngineOptions.publishInterval`: under a sustained burst of changes, a pass still completes
// and publishes once the last publication is `publishInterval` old.
extension EngineStateMachineTests {
  /// ```
  /// time:    0 ── 10 ms ─────────── 60 ms ── 70 ms
  /// changes:      r1 (supersedes)   r2 (kept: 60 ≥ 50)
  /// runner: r0 ──┘ stop ─ r1 ───────────────── publish r1 ─ r2 …
  /// ```
  @Test func aChangeOnceThePublicationIsOverdueLetsTheRunningPassPublish() {
    var machine = Machine(revision: 0, replacesRunningPass: true, publishInterval: .milliseconds(50))
    #expect(machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner)
    guard case .run = machine.takeWork() else { preconditionFailure("no work") }
    machine.time = .milliseconds(10)
    #expect(machine.received(Self.change(1)) == .signalSupersession, "not overdue: the newer revision supersedes")
    let stopped = machine.passFinished(Self.report(0, cancelled: true), evaluator: StubEvaluator(hasPendingWork: true))
    #expect(!stopped.publishesValues)
    guard case .run(let work) = machine.takeWork() else { preconditionFailure("no work") }
    #expect(work.revision == 1)
    machine.time = .milliseconds(60)
    #expect(machine.received(Self.change(2)) == .none, "overdue: the running pass is kept")
    machine.time = .milliseconds(70)
    let published = machine.passFinished(Self.report(1), evaluator: StubEvaluator(hasPendingWork: true))
    #expect(published.publishesValues && published.report.revision == 1 && !published.report.wasCancelled)
    #expect(machine.lastPublication == .milliseconds(70))
    guard case .run(let next) = machine.takeWork() else { preconditionFailure("the queued change is work") }
    #expect(next.revision == 2)
    machine.time = .milliseconds(80)
    #expect(machine.received(Self.change(3)) == .signalSupersession, "published 10 ms ago: supersedes again")
    machine._checkInvariants()
  }

  /// Without `publishInterval` every change supersedes, however long since the last publication.
  @Test func withoutAnIntervalEveryChangeSupersedes() {
    var (machine, _) = Self.running()
    machine.time = .seconds(3_600)
    #expect(machine.received(Self.change(1)) == .signalSupersession)
    let finished = machine.passFinished(Self.report(0), evaluator: StubEvaluator(hasPendingWork: true))
    #expect(!finished.publishesValues && finished.report.wasCancelled, "completed after a newer change: not published")
  }

  /// A burst of changes, one every millisecond for a second, each pass taking 3 ms: with a
  /// 50 ms interval at least 1 s / (50 ms + one pass) passes publish, in revision order.
  @Test func aBurstPublishesAtLeastOncePerInterval() {
    var machine = Machine(revision: 0, replacesRunningPass: true, publishInterval: .milliseconds(50))
    #expect(machine.started(with: StubEvaluator(hasPendingWork: true), revision: 0) == .startRunner)
    var published: [Int] = []
    var running: Machine.Work?
    var startedAt = Duration.zero
    var stopped = false
    for millisecond in 1...1_000 {
      machine.time = .milliseconds(millisecond)
      if running == nil, case .run(let work) = machine.takeWork() {
        running = work
        startedAt = machine.time
        stopped = false
      }
      if machine.received(Self.change(millisecond)) == .signalSupersession { stopped = true }
      if let work = running, machine.time - startedAt >= .milliseconds(3) || stopped {
        let publication = machine.passFinished(
          Self.report(work.revision, cancelled: stopped),
          evaluator: StubEvaluator(hasPendingWork: true))
        if publication.publishesValues { published.append(publication.report.revision) }
        running = nil
      }
    }
    #expect(published.count >= 1_000 / 54, "published \(published.count) times")
    #expect(published == published.sorted())
  }
}
