import FlowNodes
import FlowRuntime

// Documentation/CustomKinds.md's `Fahrenheit` and `Clamp`, as written there, for GuideSnippetTests.

/// `fahrenheit`: `fahrenheit = celsius × 9/5 + 32`.
struct Fahrenheit: StaticNodeKind {
  var name: String { "fahrenheit" }
  var summary: String { "converts celsius to fahrenheit" }  // one line for `flow nodes`
  var inputs: [InputPort] { [InputPort("celsius", .number, default: .number(0))] }
  var outputs: [PortDeclaration] { [PortDeclaration("fahrenheit", .number)] }
  var readsInputsByName: Bool { true }  // see §3

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = .number(try inputs.number("celsius") * 9 / 5 + 32)
  }
}

/// `clamp`: keeps `value` within the params `low`…`high`; a NaN is an error.
struct Clamp: NodeKind {
  var name: String { "clamp" }
  var summary: String { "keeps value within low…high" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("low", .number, default: .number(0), summary: "the least result"),
      ParameterDeclaration("high", .number, default: .number(100), summary: "the greatest result")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let low = parameters.number("low") ?? 0, high = parameters.number("high") ?? 100
    guard low <= high else {
      throw NodeConfigurationError(parameter: "low", reason: "must not exceed high (\(Value.number(high)))")
    }
    return NodeInstance(
      inputs: [InputPort("value", .number, default: .number(0))],
      outputs: [PortDeclaration("result", .number)], evaluator: Evaluator(low: low, high: high))
  }

  struct Evaluator: NodeEvaluator {
    let low: Double
    let high: Double

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let value = try inputs.number(0)
      guard !value.isNaN else { throw NodeError("value is not a number") }
      outputs[0] = .number(min(max(value, low), high))
    }
  }
}
