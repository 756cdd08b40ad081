@testable import FlowRuntime
import FlowTestSupport
import Testing

/// The pass's decisions as plain calls on its state machine: no threads, no tasks, no clocks.
/// Hand-written cases assert the exact actions and releases; the seeded cases replay random
/// interleavings of completions over random DAGs against a reference evaluation.
@Suite struct PassStateMachineTests {
  typealias Machine = PassStateMachine

  /// ```
  ///      ┌─ b (expensive) ─┐
  ///   a ─┤                 ├─ d
  ///      └─ c (expensive) ─┘
  /// ```
  /// `d` waits for both; `c` finishing first releases nothing, `b` then releases `d`.
  @Test func aDiamondReleasesItsJoinWhenTheLastBranchCompletes() {
    var model = PassModel(count: 4, edges: [(0, 1), (0, 2), (1, 3), (2, 3)], expensive: [1, 2])
    var machine = Machine()
    machine.begin(dirty: [0], limit: 2, in: model)
    #expect(machine.next(in: model) == .runInline(0))
    model.seeds[0] = 2
    #expect(machine.completed(0, model.store(0, model.compute(0)), in: model) == [])
    #expect(machine.next(in: model) == .spawn(1))
    #expect(machine.next(in: model) == .spawn(2))
    #expect(machine.next(in: model) == .await, "d waits for b and c")
    #expect(machine.phase[3] == .waiting && machine.waitCount[3] == 2)
    #expect(machine.completed(2, .changed, in: model) == [])
    #expect(machine.next(in: model) == .await)
    #expect(machine.completed(1, .unchanged, in: model) == [3])
    #expect(machine.next(in: model) == .runInline(3), "c changed: d must run")
    #expect(machine.completed(3, .changed, in: model) == [])
    #expect(machine.next(in: model) == .done)
    machine._checkInvariants(betweenPasses: true)
  }

  /// `a` (expensive) → `b` → `c`: `b` and `c` wait behind the running `a`; `a` is unchanged,
  /// so both are released and finished without running.
  @Test func aCutOffReleasesSpeculativeWaitersWithoutRunningThem() {
    let model = PassModel(count: 3, edges: [(0, 1), (1, 2)], expensive: [0])
    var machine = Machine()
    machine.begin(dirty: [0], limit: 4, in: model)
    #expect(machine.next(in: model) == .spawn(0))
    #expect(machine.next(in: model) == .await)
    #expect(machine.phase[1] == .waiting && machine.phase[2] == .waiting)
    #expect(machine.completed(0, .unchanged, in: model) == [1])
    #expect(machine.next(in: model) == .done, "neither b nor c runs")
    machine._checkInvariants(betweenPasses: true)
  }

  /// A changed parent makes a cut-off sibling's common child run anyway.
  @Test func aChildOfACutOffAndAChangedParentRuns() {
    let model = PassModel(count: 3, edges: [(0, 2), (1, 2)])
    var machine = Machine()
    machine.begin(dirty: [0, 1], limit: 1, in: model)
    #expect(machine.next(in: model) == .runInline(0))
    machine.completed(0, .unchanged, in: model)
    #expect(machine.next(in: model) == .runInline(1))
    machine.completed(1, .changed, in: model)
    #expect(machine.next(in: model) == .runInline(2))
    machine.completed(2, .unchanged, in: model)
    #expect(machine.next(in: model) == .done)
  }

  /// `a` → `b` → `c`, `a` throws: `b` and `c` fail with root `a` without running.
  @Test func aFailurePropagatesItsRootWithoutRunningDescendants() {
    var model = PassModel(count: 3, edges: [(0, 1), (1, 2)], throwing: [0])
    model.seeds[0] = 4
    var machine = Machine()
    machine.begin(dirty: [0], limit: 1, in: model)
    #expect(machine.next(in: model) == .runInline(0))
    #expect(model.compute(0) == nil)
    machine.completed(0, model.store(0, nil), in: model)
    #expect(machine.next(in: model) == .fail(1, root: 0))
    machine.completed(1, model.fail(1, root: 0), in: model)
    #expect(machine.next(in: model) == .fail(2, root: 0))
    machine.completed(2, model.fail(2, root: 0), in: model)
    #expect(machine.next(in: model) == .done)
    // Failing again the same way changes nothing: the descendants are not revisited.
    machine.begin(dirty: [0], limit: 1, in: model)
    #expect(machine.next(in: model) == .runInline(0))
    machine.completed(0, model.store(0, nil), in: model)
    #expect(machine.next(in: model) == .done)
  }

  /// With one child task allowed, the second expensive node waits for the first to finish.
  @Test func theLimitDefersASpawnUntilATaskFinishes() {
    let model = PassModel(count: 3, edges: [], expensive: [0, 1, 2])
    var machine = Machine()
    machine.begin(dirty: [0, 1, 2], limit: 1, in: model)
    #expect(machine.next(in: model) == .spawn(0))
    #expect(machine.next(in: model) == .await)
    machine.completed(0, .changed, in: model)
    #expect(machine.next(in: model) == .spawn(1))
    #expect(machine.next(in: model) == .await)
    machine.completed(1, .changed, in: model)
    #expect(machine.next(in: model) == .spawn(2))
    #expect(machine.next(in: model) == .await)
    machine.completed(2, .changed, in: model)
    #expect(machine.next(in: model) == .done)
  }

  /// A stop returns every node that had to run and did not finish — the running one, the
  /// abandoned one, a must-run node still queued — but not a speculative waiter.
  @Test func aStopLeavesTheUnfinishedMustRunNodesForTheNextPass() {
    // 0 (expensive) → 1;  2 → 3;  4 independent, dirty.
    let model = PassModel(count: 5, edges: [(0, 1), (2, 3)], expensive: [0])
    var machine = Machine()
    machine.begin(dirty: [0, 2, 4], limit: 2, in: model)
    #expect(machine.next(in: model) == .spawn(0))
    #expect(machine.next(in: model) == .runInline(2))
    machine.completed(2, .changed, in: model)
    // Next would be 1 (waiting on 0), then 3: stop while 3 is handed out.
    #expect(machine.next(in: model) == .runInline(3))
    let rerun = machine.stop(abandoning: 3, in: model)
    #expect(Set(rerun) == [0, 3, 4])
    machine._checkInvariants(betweenPasses: true)
    // The machine is idle: the next pass starts afresh.
    machine.begin(dirty: rerun, limit: 2, in: model)
    #expect(machine.next(in: model) == .spawn(0))
  }

  /// Unnecessary and live nodes run inline (the executor marks them stale, or steps them),
  /// even with a failed input: their own rules come first.
  @Test func unnecessaryAndLiveNodesRunInline() {
    var model = PassModel(count: 3, edges: [(0, 1), (0, 2)], expensive: [1])
    model.roles[1] = .unnecessary
    model.roles[2] = .live
    model.failures[0] = 0
    var machine = Machine()
    machine.begin(dirty: [1, 2], limit: 2, in: model)
    #expect(machine.next(in: model) == .runInline(1))
    machine.completed(1, .changed, in: model)
    #expect(machine.next(in: model) == .runInline(2))
    machine.completed(2, .unchanged, in: model)
    #expect(machine.next(in: model) == .done)
  }
}
