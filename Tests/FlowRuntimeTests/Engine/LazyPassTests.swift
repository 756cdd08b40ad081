import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// Lazy inputs in a pass: `if`, `switch` and `fallback` run only what they need; what is not
/// needed keeps its value, cannot fail the pass, and catches up with every edit it missed.
@Suite struct LazyPassTests {
  /// `pick = if(condition, then: left, else: right)`, each branch a knob (an `add` whose `a`
  /// is edited) feeding a `multiply` by 10; `right` divides by its knob (0 fails).
  static func branches(condition: Double) -> Graphs {
    var graphs = Graphs()
    graphs.node("condition", "add", ["a": .number(condition)])
    graphs.node("leftKnob", "add", ["a": .number(1)])
    graphs.node("left", "multiply", ["b": .number(10)])
    graphs.node("rightKnob", "add", ["a": .number(2)])
    graphs.node("right", "divide", ["a": .number(100)])
    graphs.node("pick", "if")
    graphs.edge("leftKnob", to: "left", "a")
    graphs.edge("rightKnob", to: "right", "b")
    graphs.edge("condition", to: "pick", "condition")
    graphs.edge("left", to: "pick", "then")
    graphs.edge("right", to: "pick", "else")
    return graphs
  }

  @Test func ifRunsOnlyTheBranchTaken() throws {
    var evaluator = try Self.branches(condition: 1).evaluator()
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["condition", "leftKnob", "left", "pick"])
    #expect(report.ran.first == "condition" && report.ran.last == "pick", "the condition first, the node last")
    #expect(Set(report.notNeeded) == ["rightKnob", "right"])
    #expect(evaluator.value(of: "pick", port: "value") == .number(10))
    #expect(evaluator.state(of: "right") == .notComputed)
  }

  @Test func anEditOnlyTheUntakenBranchSeesRunsNothing() throws {
    var evaluator = try Self.branches(condition: 1).evaluator()
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("rightKnob", "a")), to: .number(0))
    let report = evaluator.evaluate()
    #expect(report.ran.isEmpty, "division by zero in a branch not taken fails nothing")
    #expect(evaluator.failures.isEmpty)
  }

  @Test func flippingTheConditionBringsTheBranchUpToDate() throws {
    var evaluator = try Self.branches(condition: 1).evaluator()
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("rightKnob", "a")), to: .number(4))
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("condition", "a")), to: .number(0))
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["condition", "rightKnob", "right", "pick"])
    #expect(evaluator.value(of: "pick", port: "value") == .number(25), "100 / 4: the edit it missed is not lost")
    #expect(Set(report.notNeeded) == ["leftKnob", "left"])
    // Back to `then`: the left branch missed nothing, so only the condition and `pick` run.
    try evaluator.setUnconnectedInput(#require(evaluator.input("condition", "a")), to: .number(1))
    #expect(Set(evaluator.evaluate().ran) == ["condition", "pick"])
    #expect(evaluator.value(of: "pick", port: "value") == .number(10))
  }

  @Test func aFailureInTheTakenBranchFailsTheNode() throws {
    var evaluator = try Self.branches(condition: 0).evaluator()
    try evaluator.setUnconnectedInput(#require(evaluator.input("rightKnob", "a")), to: .number(0))
    evaluator.evaluate()
    #expect(evaluator.state(of: "pick") == .failed(message: "upstream error from right", root: "right"))
  }

  @Test func fallbackCatchesAFailingPrimary() throws {
    var graphs = Graphs()
    graphs.node("knob", "add", ["a": .number(0)])
    graphs.node("primary", "divide", ["a": .number(1)])
    graphs.node("secondary", "add", ["a": .number(7)])
    graphs.node("value", "fallback")
    graphs.edge("knob", to: "primary", "b")
    graphs.edge("primary", to: "value", "primary")
    graphs.edge("secondary", to: "value", "secondary")
    var evaluator = try graphs.evaluator()
    let report = evaluator.evaluate()
    #expect(evaluator.value(of: "value", port: "value") == .number(7))
    #expect(report.caught == ["value": "division by zero"])
    #expect(evaluator.uncaughtFailures(reaching: ["value"]).isEmpty, "a caught failure is no error of the run")
    try evaluator.setUnconnectedInput(#require(evaluator.input("knob", "a")), to: .number(2))
    let recovered = evaluator.evaluate()
    #expect(evaluator.value(of: "value", port: "value") == .number(0.5))
    #expect(!recovered.ran.contains("secondary") && recovered.notNeeded.contains("secondary"))
  }

  @Test func switchRunsOnlyTheCaseChosen() throws {
    var graphs = Graphs()
    graphs.node("key", "add", ["a": .number(2)])
    graphs.node("one", "add", ["a": .number(10)])
    graphs.node("two", "add", ["a": .number(20)])
    graphs.node("choice", "switch", ["cases": .array([.number(1), .number(2)])])
    graphs.edge("key", to: "choice", "key")
    graphs.edge("one", to: "choice", "case1")
    graphs.edge("two", to: "choice", "case2")
    var evaluator = try graphs.evaluator()
    #expect(Set(evaluator.evaluate().ran) == ["key", "two", "choice"])
    #expect(evaluator.value(of: "choice", port: "value") == .number(20))
    try evaluator.setUnconnectedInput(#require(evaluator.input("key", "a")), to: .number(5))
    evaluator.evaluate()
    #expect(
      evaluator.state(of: "choice")
        == .failed(message: "no case matches the key 5 and default is not connected", root: "choice"))
  }

  @Test func observingABranchMakesItNeeded() throws {
    var evaluator = try Self.branches(condition: 1).evaluator(options: EngineOptions(demandDriven: true))
    evaluator.observe("pick")
    #expect(!evaluator.evaluate().ran.contains("right"))
    evaluator.observe("right")
    let report = evaluator.evaluate()
    #expect(Set(report.ran) == ["rightKnob", "right"])
    #expect(report.notNeeded.isEmpty)
  }
}

extension LazyPassTests {
  /// A lazy pass stopped between nodes leaves dirty only what must still run — which can be
  /// nothing: an edit only the untaken branch sees, stopped at the eagerly needed `if` (queued
  /// every pass, with no input changed). The engine's state machine must still publish that
  /// revision (`EngineStateMachine.hasWork`); this shows the case is real, and that the pass
  /// after any stop leaves the values a pass without stops leaves.
  ///
  /// Seven `if`s read the same branches, so whichever nodes the pass polls at (every node
  /// when nodes are slow, then every 2nd, 4th… when they are fast: `StopPolling`), every poll
  /// after the first is at an `if` with nothing left to run.
  @Test func aPassStoppedAtAnyNodeIsCompletedByTheNext() throws {
    var graphs = Self.branches(condition: 1)
    for index in 2...7 {
      graphs.node("pick\(index)", "if")
      graphs.edge("condition", to: "pick\(index)", "condition")
      graphs.edge("left", to: "pick\(index)", "then")
      graphs.edge("right", to: "pick\(index)", "else")
    }
    var stoppedWithNothingDirty = 0
    for stopAt in 1...3 {
      var evaluator = try graphs.evaluator()
      evaluator.evaluate()
      try evaluator.setUnconnectedInput(#require(evaluator.input("rightKnob", "a")), to: .number(5))
      var polls = 0
      let stopped = evaluator.evaluate {
        polls += 1
        return polls == stopAt
      }
      if stopped.wasCancelled && !evaluator.hasPendingWork { stoppedWithNothingDirty += 1 }
      let next = evaluator.evaluate()
      #expect(!next.wasCancelled && !evaluator.hasPendingWork, "stop at poll \(stopAt)")
      #expect(!next.ran.contains("rightKnob") && !next.ran.contains("right"), "stop at poll \(stopAt)")
      #expect(evaluator.value(of: "pick", port: "value") == .number(10), "stop at poll \(stopAt)")
      // The branch still catches up with the edit when it is taken.
      try evaluator.setUnconnectedInput(#require(evaluator.input("condition", "a")), to: .number(0))
      evaluator.evaluate()
      #expect(evaluator.value(of: "pick", port: "value") == .number(20), "100 / 5, stop at poll \(stopAt)")
    }
    #expect(stoppedWithNothingDirty > 0, "a stopped lazy pass can leave no node dirty")
  }
}
