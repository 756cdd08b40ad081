import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// The lazy pass against a reference evaluator (`LazyReference`: lazy recursive evaluation from
/// the roots) on seeded random graphs of arithmetic, failing divisions, `if`, `switch` and
/// `fallback`, with edits between passes: the same values, the same failures, and exactly the
/// same set of nodes run in each pass.
@Suite struct LazyPropertyTests {
  /// Builds the reference and the engine for `seed`; half the seeds are demand-driven.
  static func make(seed: UInt64) throws -> (LazyReference, GraphEvaluator, demandDriven: Bool) {
    var random = SeededRandom(seed: seed &+ 42_000)
    var reference = LazyReference(random: &random, count: 8 + Int(random.next() % 30))
    let demandDriven = seed % 2 == 1
    var evaluator = try GraphEvaluator(
      validating: reference.document, registry: .standard,
      options: EngineOptions(demandDriven: demandDriven))
    if demandDriven {
      let count = reference.nodes.count
      reference.roots = [count - 1] + (0..<count).filter { _ in random.next() % 5 == 0 }
      for root in reference.roots { evaluator.observe(reference.nodes[root].id) }
    } else {
      reference.roots = reference.successors.indices.filter { reference.successors[$0].isEmpty }
    }
    return (reference, evaluator, demandDriven)
  }

  @Test(arguments: 0..<1000)
  func lazyPassesMatchTheReference(seed: UInt64) throws {
    var (reference, evaluator, demandDriven) = try Self.make(seed: seed)
    var random = SeededRandom(seed: seed &+ 7)
    for step in 0..<12 {
      let expected = Set(reference.pass().map { reference.nodes[$0].id })
      let report = evaluator.evaluate()
      evaluator._checkInvariants()
      #expect(
        Set(report.ran) == expected,
        "seed \(seed) step \(step): ran \(report.ran.sorted()), expected \(expected.sorted())")
      Self.expectStates(evaluator, reference, demandDriven: demandDriven, "seed \(seed) step \(step)")
      try Self.edit(&reference, &evaluator, random: &random)
    }
  }

  /// The same, with each pass stopped after a random number of polls of `shouldStop` (as a
  /// synchronous pass stops at its time budget) and completed by the next: the two parts run
  /// each node at most once and together exactly the nodes the reference runs.
  @Test(arguments: 0..<400)
  func stoppedLazyPassesMatchTheReference(seed: UInt64) throws {
    var (reference, evaluator, demandDriven) = try Self.make(seed: seed)
    var random = SeededRandom(seed: seed &+ 11)
    for step in 0..<12 {
      let expected = Set(reference.pass().map { reference.nodes[$0].id })
      var polls = 1 + Int(random.next() % 3)
      let first = evaluator.evaluate(revision: nil) {
        polls -= 1
        return polls == 0
      }
      let rest = evaluator.evaluate()
      evaluator._checkInvariants()
      #expect(Set(first.ran).isDisjoint(with: rest.ran), "seed \(seed) step \(step): a node ran in both parts")
      let ran = Set(first.ran).union(rest.ran)
      #expect(ran == expected, "seed \(seed) step \(step): ran \(ran.sorted()), expected \(expected.sorted())")
      Self.expectStates(evaluator, reference, demandDriven: demandDriven, "seed \(seed) step \(step)")
      try Self.edit(&reference, &evaluator, random: &random)
    }
  }

  /// Every node's state is the reference's (in a demand-driven pass, every necessary node's).
  static func expectStates(
    _ evaluator: GraphEvaluator, _ reference: LazyReference, demandDriven: Bool, _ context: String
  ) {
    for index in reference.nodes.indices {
      let id = reference.nodes[index].id
      if demandDriven && !evaluator.isNecessary(id) { continue }
      #expect(evaluator.state(of: id) == reference.state(index), "\(context): node \(id)")
    }
  }

  /// Edits between passes: a few unconnected inputs get new values in both.
  static func edit(_ reference: inout LazyReference, _ evaluator: inout GraphEvaluator, random: inout SeededRandom)
    throws
  {
    for _ in 0..<(1 + Int(random.next() % 3)) {
      let index = Int(random.next() % UInt64(reference.nodes.count))
      let node = reference.nodes[index]
      guard let port = node.sources.indices.first(where: { node.sources[$0] == nil && !node.lazy[$0] }),
        case .number = node.constants[port]
      else { continue }
      let value = Value.number(Double(Int(random.next() % 5) - 1))
      reference.set(index, port, value)
      try evaluator.setUnconnectedInput(#require(evaluator.input(node.id, reference.portName(index, port))), to: value)
    }
  }

  /// The random graphs exercise what the property is about: branches left out, failures, and
  /// nodes brought up late.
  @Test func theRandomGraphsLeaveBranchesOutAndFail() throws {
    var notNeeded = 0, failed = 0, ran = 0
    for seed in UInt64(0)..<50 {
      var (_, evaluator, _) = try Self.make(seed: seed)
      let report = evaluator.evaluate()
      notNeeded += report.notNeeded.count
      failed += report.failed.count
      ran += report.ran.count
    }
    #expect(notNeeded > 50 && failed > 10 && ran > 200, "not needed \(notNeeded), failed \(failed), ran \(ran)")
  }
}
