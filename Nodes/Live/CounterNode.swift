import FlowRuntime

/// `counter`: counts the passes in which its input changed value or carried an emission.
struct CounterNode: NodeKind {
  var name: String { "counter" }
  var summary: String { "live: counts the passes in which its input changed or carried an emission" }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("trigger", .any, default: .integer(0))], outputs: [PortDeclaration("count", .integer)],
      evaluator: LiveNodeEvaluator(), live: .stateful(Stepper()))
  }

  struct Stepper: StatefulNodeEvaluator {
    var initialState: Value { .integer(0) }

    func restore(_ saved: Value) throws(NodeError) -> Value {
      guard let count = saved.integerValue, count >= 0 else {
        throw NodeError("expected a count (a whole number ≥ 0), found \(saved)")
      }
      return .integer(count)
    }

    func step(_ state: Value, _ inputs: NodeInputs, _ context: LiveContext, _ outputs: inout NodeOutputs) throws
      -> Value
    {
      var count = state.integerValue ?? 0
      if context.isEvent { count &+= 1 }
      outputs[0] = .integer(count)
      return .integer(count)
    }
  }
}

/// The evaluator of a live kind's instance: never called (the engine runs live nodes through
/// their `LiveBehavior`).
struct LiveNodeEvaluator: NodeEvaluator {
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    throw NodeError("a live node runs only in an engine that knows live nodes")
  }
}

extension CounterNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.live) }
}
