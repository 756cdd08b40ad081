// A custom node kind from nothing (see Documentation/CustomKinds.md):
//
//     swift run example-custom-kind
//
// Defines `fahrenheit` (fixed ports, reads its input by name) and `clamp` (ports fixed, bounds
// from params, a configuration error for bad bounds), registers them next to the standard
// kinds, builds a graph in code and evaluates it.
import FlowNodes
import FlowRuntime

/// `fahrenheit`: `fahrenheit = celsius × 9/5 + 32`.
struct Fahrenheit: StaticNodeKind {
  var name: String { "fahrenheit" }
  var summary: String { "converts celsius to fahrenheit" }
  var inputs: [InputPort] { [InputPort("celsius", .number, default: .number(0))] }
  var outputs: [PortDeclaration] { [PortDeclaration("fahrenheit", .number)] }
  var readsInputsByName: Bool { true }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = .number(try inputs.number("celsius") * 9 / 5 + 32)
  }
}

/// `clamp`: keeps `value` within the params `low`…`high`; a NaN is an error.
struct Clamp: NodeKind {
  var name: String { "clamp" }
  var summary: String { "keeps value within low…high" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("low", .number, default: .number(0), summary: "the least result"),
     ParameterDeclaration("high", .number, default: .number(100), summary: "the greatest result")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let low = parameters.number("low") ?? 0, high = parameters.number("high") ?? 100
    guard low <= high else { throw NodeConfigurationError(parameter: "low", reason: "must not exceed high (\(Value.number(high)))") }
    return NodeInstance(inputs: [InputPort("value", .number, default: .number(0))],
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

/// Registers the kinds, builds a graph in code and evaluates it.
func demonstrate() async throws {
  var registry = NodeKindRegistry.standard
  registry.register(Fahrenheit())
  registry.register(Clamp())

  // reading (°C) → fahrenheit → clamp(low 32, high 90) ; reading → warmer (add 5) → fahrenheit
  let document = FlowDocument(
    nodes: [
      FlowNode(id: "reading", data: NodeSpec(kind: "number", params: ["value": 35])),
      FlowNode(id: "toF", data: NodeSpec(kind: "fahrenheit")),
      FlowNode(id: "limited", data: NodeSpec(kind: "clamp", params: ["low": 32, "high": 90])),
    ],
    edges: [
      FlowEdge(id: "e1", sourceNodeID: "reading", sourceHandleID: "value", targetNodeID: "toF", targetHandleID: "celsius"),
      FlowEdge(id: "e2", sourceNodeID: "toF", sourceHandleID: "fahrenheit", targetNodeID: "limited", targetHandleID: "value"),
    ])

  let engine = try FlowEngine(document: document, registry: registry)
  await engine.evaluate()
  print("35 °C =", await engine.outputs(of: "toF")?["fahrenheit"] ?? "?", "°F; clamped:",
        await engine.outputs(of: "limited")?["result"] ?? "?")

  var reading = engine.store.node(id: "reading")!
  reading.data.params["value"] = 20
  try engine.store.updateNode(reading)
  let report = await engine.evaluate()!
  print("20 °C =", await engine.outputs(of: "toF")?["fahrenheit"] ?? "?", "°F; clamped:",
        await engine.outputs(of: "limited")?["result"] ?? "?", "(ran: \(report.ran.joined(separator: ", ")))")

  // Bad params are validation errors naming the node and the param; nothing changes.
  do {
    try engine.store.updateNode(FlowNode(id: "limited", data: NodeSpec(kind: "clamp", params: ["low": 50, "high": 10])))
  } catch {
    print("rejected:", error)
  }
  engine.shutDown()
}

try await demonstrate()
