@testable import FlowRuntime
import FlowTestSupport
import Testing

/// An executor for `PassStateMachine` over a `PassModel`, without threads: inline nodes run at
/// once, spawned nodes compute their result when spawned (their inputs are final) and store it
/// when the replay completes them, in an order drawn from `random`. Checks, at every step,
/// what must hold whatever the interleaving.
struct PassReplay {
  typealias Machine = PassStateMachine

  var model: PassModel
  var machine = Machine()
  /// Every action the machine returned, in order.
  var actions: [Machine.Action] = []
  /// The nodes that ran (inline or spawned), in the order they started.
  var ran: [Int32] = []
  var failedUpstream: [Int32] = []
  /// Each completion with the nodes it released.
  var releases: [(node: Int32, released: [Int32])] = []
  /// After a stop: the nodes the next pass must run.
  var rerun: [Int32]?

  private var dirty: Set<Int32> = []
  private var handedOut: Set<Int32> = []
  private var completed: Set<Int32> = []
  private var changed: Set<Int32> = []
  private var running: [(node: Int32, result: Int?)] = []

  init(_ model: PassModel) { self.model = model }

  /// Runs a pass over `dirty` with at most `limit` child tasks, completing running nodes in an
  /// order drawn from `random`; stops before the `stopAt`-th node handed out, if given.
  mutating func run(dirty: [Int32], limit: Int, random: inout SeededRandom, stopAt: Int? = nil) {
    self.dirty = Set(dirty)
    handedOut = []
    completed = []
    changed = []
    running = []
    machine.begin(dirty: dirty, limit: limit, in: model)
    while true {
      machine._checkInvariants(betweenPasses: false)
      let action = machine.next(in: model)
      actions.append(action)
      switch action {
      case .done:
        #expect(running.isEmpty, "done while nodes run")
        machine._checkInvariants(betweenPasses: true)
        return
      case .await:
        guard !running.isEmpty else {
          Issue.record("await with nothing running")
          return
        }
        let (node, result) = running.remove(at: Int.random(in: 0..<running.count, using: &random))
        complete(node, model.store(node, result))
      case .runInline(let node), .spawn(let node), .fail(let node, _):
        if let stopAt, handedOut.count == stopAt {
          rerun = machine.stop(abandoning: node, in: model)
          running = []
          machine._checkInvariants(betweenPasses: true)
          return
        }
        handOut(node)
        switch action {
        case .fail(_, let root):
          #expect(model.failedInputRoot(of: node) == root, "node \(node) fails with its first failed input's root")
          failedUpstream.append(node)
          complete(node, model.fail(node, root: root))
        case .spawn:
          #expect(model.roles[Int(node)] == .expensive, "only expensive nodes are spawned")
          #expect(machine.running <= limit, "at most \(limit) child tasks")
          ran.append(node)
          running.append((node, model.compute(node)))
        default:
          #expect(model.roles[Int(node)] == .cheap, "expensive nodes are spawned, inert ones never run")
          ran.append(node)
          complete(node, model.store(node, model.compute(node)))
        }
      }
    }
  }

  /// A node is handed out: once, only if it must run, after every input it depends on is final.
  private mutating func handOut(_ node: Int32) {
    #expect(!handedOut.contains(node), "node \(node) runs at most once")
    handedOut.insert(node)
    #expect(
      dirty.contains(node) || model.inputs[Int(node)].contains(where: changed.contains),
      "node \(node) runs only if dirty or an input changed")
    expectInputsFinal(node, "handed out")
  }

  private mutating func complete(_ node: Int32, _ outcome: Machine.Outcome) {
    completed.insert(node)
    if outcome.propagates { changed.insert(node) }
    let released = machine.completed(node, outcome, in: model)
    releases.append((node, released))
    for successor in released {
      #expect(model.inputs[Int(successor)].contains(node), "node \(node) released \(successor), not its successor")
      #expect(!handedOut.contains(successor), "node \(successor) released after it ran")
      expectInputsFinal(successor, "released")
    }
  }

  /// Every input of `node` that was handed out in this pass has completed.
  private func expectInputsFinal(_ node: Int32, _ what: String) {
    for source in model.inputs[Int(node)] where source >= 0 && handedOut.contains(source) {
      #expect(completed.contains(source), "node \(node) \(what) before its input \(source) completed")
    }
  }
}
