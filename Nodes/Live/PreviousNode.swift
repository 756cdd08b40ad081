import FlowRuntime

/// `previous`: the value its input had in the previous pass it ran in (feedback without a
/// cycle); `initial` in the pass of the input's first value.
struct PreviousNode: NodeKind {
  var name: String { "previous" }
  var summary: String { "live: the input's value from the previous pass (param initial)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("initial", .any, default: .number(0), summary: "the value before the input had one")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("value", .any, default: .number(0))], outputs: [PortDeclaration("value", .any)],
      evaluator: LiveNodeEvaluator(), live: .stateful(Stepper(initial: parameters["initial"] ?? .number(0))))
  }

  /// State: `[]` before the input's first value, `[last]` after.
  struct Stepper: StatefulNodeEvaluator {
    let initial: Value
    var initialState: Value { .list([]) }

    func restore(_ saved: Value) throws(NodeError) -> Value {
      guard case .list(let items) = saved, items.count <= 1 else {
        throw NodeError("expected [] or [the last value], found \(saved)")
      }
      return saved
    }

    func step(_ state: Value, _ inputs: NodeInputs, _ context: LiveContext, _ outputs: inout NodeOutputs) throws
      -> Value
    {
      if case .list(let items) = state, let last = items.first { outputs[0] = last } else { outputs[0] = initial }
      return .list([inputs[0]])
    }
  }
}

extension PreviousNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.live) }
}
