import FlowRuntime

/// `celsius`: converts a temperature in degrees Fahrenheit to degrees Celsius.
struct CelsiusNode: StaticNodeKind {
  var name: String { "celsius" }
  var summary: String { "celsius = (fahrenheit - 32) × 5/9" }
  var inputs: [InputPort] { [InputPort("fahrenheit", .number, default: .number(32))] }
  var outputs: [PortDeclaration] { [PortDeclaration("celsius", .number)] }
  var readsInputsByName: Bool { true }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let fahrenheit = try inputs.number("fahrenheit")
    guard fahrenheit >= -459.67 else { throw NodeError("\(Value.number(fahrenheit)) °F is below absolute zero") }
    outputs[0] = .number((fahrenheit - 32) * 5 / 9)
  }
}
