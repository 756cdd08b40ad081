import FlowRuntime

/// The shape shared by `add`, `subtract`, `multiply` and `divide`: number inputs `a` and `b`
/// with one default, and a number output `result`.
protocol BinaryArithmetic: StaticNodeKind {
  /// The value `a` and `b` take while unconnected.
  static var identity: Double { get }
  func combine(_ a: Double, _ b: Double) throws -> Double
}

extension BinaryArithmetic {
  var inputs: [InputPort] {
    [InputPort("a", .number, default: .number(Self.identity)), InputPort("b", .number, default: .number(Self.identity))]
  }

  var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }
  var scalarEvaluation: ScalarEvaluation? { .numbers { a, b in try combine(a, b) } }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = .number(try combine(inputs.number(0), inputs.number(1)))
  }
}
