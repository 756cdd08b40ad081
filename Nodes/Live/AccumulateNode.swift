import FlowRuntime

/// `accumulate`: the running sum of the values its input has taken (each emission counts,
/// even of an equal value).
struct AccumulateNode: NodeKind {
  var name: String { "accumulate" }
  var summary: String { "live: running sum of the values its input has taken (param initial)" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("initial", .number, default: .number(0), summary: "the sum before any value")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("value", .number, default: .number(0))], outputs: [PortDeclaration("total", .number)],
      evaluator: LiveNodeEvaluator(), live: .stateful(Stepper(initial: parameters.number("initial") ?? 0)))
  }

  struct Stepper: StatefulNodeEvaluator {
    let initial: Double
    var initialState: Value { .number(initial) }

    func restore(_ saved: Value) throws(NodeError) -> Value {
      guard let total = saved.numberValue else { throw NodeError("expected a number, found \(saved)") }
      return .number(total)
    }

    func step(_ state: Value, _ inputs: NodeInputs, _ context: LiveContext, _ outputs: inout NodeOutputs) throws
      -> Value
    {
      var total = state.numberValue ?? initial
      if context.isEvent { total += try inputs.number(0) }
      outputs[0] = .number(total)
      return .number(total)
    }
  }
}

extension AccumulateNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.live) }
}
