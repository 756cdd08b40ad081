/// What a pass does with a node it reached because the node must run (it was dirty, or an input
/// it reads changed): the one set of rules every executor follows — the serial pass
/// (`GraphEvaluator.run`), the lazy pass (`GraphEvaluator.lazyStep`) and the pass machine
/// (`PassStateMachine.next`). A rule changes here, and in no executor.
///
/// The rules, in order; the first that holds decides (`init(of:in:needed:)`):
///
/// 1. `inert`: the node never runs (a container, a removed node).
/// 2. `unnecessary`: a demand-driven pass, and no observer needs the node: it is marked stale.
/// 3. `notNeeded`: a lazy pass that does not need the node (it lies behind lazy inputs no lazy
///    node asked for): it keeps its value, shown as not computed, and is marked `missed`.
/// 4. `lazy`: the node has lazy inputs: its two steps decide the rest, reading only the inputs
///    they ask for (`GraphEvaluator+LazyNode.swift`).
/// 5. `live`: a live node: it settles through its live state (`GraphEvaluator.runLive`).
/// 6. `fail(root:)`: an input is failed: the node fails with the root of the first failed input
///    in port order, without running.
/// 7. `pending`: an input waits for a live source's first emission: the node is pending.
/// 8. `run`: the node's evaluator runs on its inputs.
///
/// Rules 6–8 are `init(inputsOf:in:)`, which a stateful live node applies too.
/// What an executor adds around the rules is its own: the cutoff (a node reached speculatively
/// or brought up whose inputs did not change does not run), where a `run` happens (inline, in a
/// child task, on the typed path) and how staleness spreads.
enum NodeDisposition: Equatable, Sendable {
  case inert
  case unnecessary
  case notNeeded
  case lazy
  case live
  case fail(root: Int32)
  case pending
  case run

  /// The disposition of `node` in `graph` (see the type's rules).
  ///
  /// - Parameter needed: whether the pass needs the node: always outside a lazy pass; in one,
  ///   whether it is needed eagerly or was brought up by a lazy node.
  /// - Complexity: O(1), plus O(inputs) only when some node is failed or pending.
  @inline(__always)
  init<Graph: PassGraph>(of node: Int32, in graph: Graph, needed: Bool = true) {
    let role = graph.passRole(of: node)
    if role == .inert {
      self = .inert
    } else if role == .unnecessary {
      self = .unnecessary
    } else if !needed {
      self = .notNeeded
    } else if graph.passHasLazyInputs(node) {
      self = .lazy
    } else if role == .live {
      self = .live
    } else {
      self = NodeDisposition(inputsOf: node, in: graph)
    }
  }

  /// Rules 6–8: `fail(root:)`, `pending` or `run`, from the states of `node`'s inputs.
  @inline(__always)
  init<Graph: PassGraph>(inputsOf node: Int32, in graph: Graph) {
    if graph.passHasFailures, let root = Self.failedInputRoot(of: node, in: graph) {
      self = .fail(root: root)
    } else if graph.passHasPendingInput(node) {
      self = .pending
    } else {
      self = .run
    }
  }

  /// The root failure among `node`'s inputs: the root of the first failed input in port
  /// order, or `nil`.
  @inline(__always)
  static func failedInputRoot<Graph: PassGraph>(of node: Int32, in graph: Graph) -> Int32? {
    for port in 0..<graph.passInputCount(of: node) {
      let source = graph.passInputSource(port, of: node)
      if source >= 0 {
        let root = graph.passFailureRoot(of: source)
        if root >= 0 { return root }
      }
    }
    return nil
  }
}
