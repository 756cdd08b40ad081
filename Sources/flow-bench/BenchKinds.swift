import FlowRuntime

/// The node kinds of the W1–W5 workloads (`Documentation/Performance.md`), registered through the public API as any
/// embedding app would. Values are integers.
enum BenchKinds {
  static let modulus: Int64 = 1_000_003

  static var registry: NodeKindRegistry {
    NodeKindRegistry([Source(), AddOne(), AddModulo(), Sum(), Clamp(), Heavy()])
  }

  /// `source`: passes its unconnected input `value` on (set it with `setUnconnectedInput`).
  struct Source: StaticNodeKind {
    var name: String { "source" }
    var summary: String { "value = input value" }
    var inputs: [InputPort] { [InputPort("value", .integer, default: .integer(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("value", .integer)] }
    var scalarEvaluation: ScalarEvaluation? { .integers { $0 } }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
  }

  /// `add1`: `in + 1`.
  struct AddOne: StaticNodeKind {
    var name: String { "add1" }
    var summary: String { "result = a + 1" }
    var inputs: [InputPort] { [InputPort("a", .integer, default: .integer(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .integer)] }
    var scalarEvaluation: ScalarEvaluation? { .integers { $0 &+ 1 } }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .integer(try inputs.integer(0) &+ 1)
    }
  }

  /// `addmod`: `(a + b) mod 1,000,003`.
  struct AddModulo: StaticNodeKind {
    var name: String { "addmod" }
    var summary: String { "result = (a + b) mod 1000003" }
    var inputs: [InputPort] {
      [InputPort("a", .integer, default: .integer(0)), InputPort("b", .integer, default: .integer(0))]
    }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .integer)] }
    var scalarEvaluation: ScalarEvaluation? { .integers { ($0 &+ $1) % BenchKinds.modulus } }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .integer((try inputs.integer(0) &+ inputs.integer(1)) % BenchKinds.modulus)
    }
  }

  /// `sum`: the sum of `count` integer inputs `in0`, `in1`, ….
  struct Sum: NodeKind {
    var name: String { "sum" }
    var summary: String { "result = sum of inputs in0…" }
    var parameters: [ParameterDeclaration] { [ParameterDeclaration("count", .integer, required: true)] }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      let count = Int(parameters.integer("count") ?? 0)
      return NodeInstance(
        inputs: (0..<count).map { InputPort("in\($0)", .integer, default: .integer(0)) },
        outputs: [PortDeclaration("result", .integer)], evaluator: Evaluator(),
        scalarEvaluation: .foldingIntegers(0) { $0 &+ $1 })
    }

    struct Evaluator: NodeEvaluator {
      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        var total: Int64 = 0
        for index in 0..<inputs.count { total &+= try inputs.integer(index) }
        outputs[0] = .integer(total)
      }
    }
  }

  /// `clamp`: `min(max(a, 0), 10)`.
  struct Clamp: StaticNodeKind {
    var name: String { "clamp" }
    var summary: String { "result = clamp(a, 0, 10)" }
    var inputs: [InputPort] { [InputPort("a", .integer, default: .integer(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .integer)] }
    var scalarEvaluation: ScalarEvaluation? { .integers { min(max($0, 0), 10) } }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .integer(min(max(try inputs.integer(0), 0), 10))
    }
  }

  /// `heavy`: ~5 ms of CPU (`busy(iterations, seed + a)`), declared expensive.
  struct Heavy: NodeKind {
    var name: String { "heavy" }
    var summary: String { "result = busy(iterations, seed + a)" }
    var parameters: [ParameterDeclaration] {
      [
        ParameterDeclaration("iterations", .integer, required: true),
        ParameterDeclaration("seed", .integer, default: .integer(0))
      ]
    }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: [InputPort("a", .integer, default: .integer(0))], outputs: [PortDeclaration("result", .integer)],
        evaluator: Evaluator(
          iterations: Int(parameters.integer("iterations") ?? 0),
          seed: parameters.integer("seed") ?? 0),
        cost: .expensive)
    }

    struct Evaluator: NodeEvaluator {
      let iterations: Int
      let seed: Int64

      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        outputs[0] = .integer(busy(iterations, UInt64(bitPattern: seed &+ (try inputs.integer(0)))))
      }
    }
  }
}

/// The W4 busy loop: an LCG iterated `iterations` times.
@inline(never)
func busy(_ iterations: Int, _ seed: UInt64) -> Int64 {
  var x = seed
  for _ in 0..<iterations { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
  return Int64(x & 0xFFFF)
}
