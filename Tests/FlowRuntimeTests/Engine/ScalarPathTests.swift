// swift-format-ignore-file
// (Documentation/CustomKinds.md quotes this file's code as written, see Scripts/check-snippets.py,
// so it keeps its own line breaks.)
import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport

import Testing

/// The typed fast path (`ScalarEvaluation`) and the boxed path (`NodeEvaluator`) must give the
/// same values, failures and reports — which nodes ran, were cut off, failed — for every kind
/// that offers both: the standard arithmetic and one test kind per typed shape, over random
/// graphs and random input changes (including integers into number ports, values that make a
/// node throw, and strings on `any` ports that force the fallback).
@Suite struct ScalarPathTests {
  /// `twice` (integer → integer), `addInts` (integer, integer), `halve` (number, throws on a
  /// negative), `sumInts` (any number of integers), `sumNumbers` (any number of numbers),
  /// `numberAny` (an `any` input read as a number).
  struct Typed: NodeKind {
    let name: String
    var summary: String { "test kind \(name)" }

    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      switch name {
      case "twice":
        return make([.integer], .integer, .integers { $0 &* 2 }) { .integer(try $0.integer(0) &* 2) }
      case "addInts":
        return make([.integer, .integer], .integer, .integers { $0 &+ $1 }) { .integer(try $0.integer(0) &+ $0.integer(1)) }
      case "halve":
        return make([.number], .number, .numbers(Self.halve)) { .number(try Self.halve(try $0.number(0))) }
      case "sumInts":
        return make([.integer, .integer, .integer], .integer, .foldingIntegers(0) { $0 &+ $1 }) { inputs in
          .integer(try (0..<inputs.count).reduce(Int64(0)) { $0 &+ (try inputs.integer($1)) })
        }
      case "sumNumbers":
        return make([.number, .number, .number], .number, .foldingNumbers(0) { $0 + $1 }) { inputs in
          .number(try (0..<inputs.count).reduce(0.0) { $0 + (try inputs.number($1)) })
        }
      default:
        return make([.any], .number, .numbers { $0 * 3 }) { .number(try $0.number(0) * 3) }
      }
    }

    @Sendable static func halve(_ x: Double) throws -> Double {
      guard x >= 0 else { throw NodeError("negative input") }
      return x / 2
    }

    func make(_ inputs: [PortType], _ output: PortType, _ scalar: ScalarEvaluation,
              _ body: @escaping @Sendable (NodeInputs) throws -> Value) -> NodeInstance {
      NodeInstance(inputs: inputs.enumerated().map { InputPort("in\($0.offset)", $0.element, default: .integer(1)) },
                   outputs: [PortDeclaration("out", output)], evaluator: Boxed(body: body), scalarEvaluation: scalar)
    }

    struct Boxed: NodeEvaluator {
      let body: @Sendable (NodeInputs) throws -> Value
      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = try body(inputs) }
    }
  }

  static let typedKinds = ["twice", "addInts", "halve", "sumInts", "sumNumbers", "numberAny"]
  static let standardKinds = ["add", "subtract", "multiply", "divide"]

  static var registry: NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    for name in typedKinds { registry.register(Typed(name: name)) }
    return registry
  }

  /// A random DAG whose edges only join ports of compatible types.
  static func randomDocument(_ random: inout SeededRandom, registry: NodeKindRegistry) -> FlowDocument {
    var document = FlowDocument()
    var outputTypes: [PortType] = []
    let kinds = typedKinds + standardKinds
    for index in 0..<(4 + Int(random.next() % 30)) {
      let kind = kinds[Int(random.next() % UInt64(kinds.count))]
      document.nodes.append(FlowNode(id: "n\(index)", data: NodeSpec(kind: kind)))
      guard case .success(let node) = registry.configure(NodeSpec(kind: kind)) else { continue }
      outputTypes.append(node.signature.outputs[0].type)
      guard index > 0 else { continue }
      for input in node.signature.inputs where random.next() % 10 < 6 {
        let source = Int(random.next() % UInt64(index))
        guard input.type.accepts(outputTypes[source]) else { continue }
        document.edges.append(FlowEdge(id: "e\(document.edges.count)", sourceNodeID: "n\(source)",
                                       targetNodeID: "n\(index)", targetHandleID: input.name))
      }
    }
    return document
  }

  static func randomValue(for type: PortType, _ random: inout SeededRandom) -> Value {
    let pick = random.next() % 8
    switch type {
    case .integer: return .integer(Int64(pick) - 3)
    case .number: return pick < 4 ? .number(Double(pick) - 1.5) : (pick == 4 ? .number(-0.0) : .integer(Int64(pick) - 6))
    default: return pick < 5 ? .number(Double(pick)) : (pick == 5 ? .string("x") : .integer(Int64(pick)))
    }
  }

  struct Outcome: Equatable {
    var ran: [String]
    var cutOff: [String]
    var failed: [String: String]
    var values: [String: [String: Value]]
    var counts: [String: Int]
  }

  static func outcome(_ report: EvaluationReport, _ evaluator: GraphEvaluator) -> Outcome {
    let ids = evaluator.presentNodeIDs
    return Outcome(ran: report.ran, cutOff: report.cutOff, failed: report.failed,
                   values: Dictionary(uniqueKeysWithValues: ids.map { ($0, evaluator.outputs(of: $0) ?? [:]) }),
                   counts: Dictionary(uniqueKeysWithValues: ids.map { ($0, evaluator.evaluationCount(of: $0) ?? -1) }))
  }

  @Test(arguments: 0..<150)
  func typedAndBoxedPathsAgree(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 7_919 &+ 3)
    let registry = Self.registry
    let document = Self.randomDocument(&random, registry: registry)
    var typed = try GraphEvaluator(validating: document, registry: registry)
    var boxedOptions = EngineOptions()
    boxedOptions.usesScalarEvaluation = false
    var boxed = try GraphEvaluator(validating: document, registry: registry, options: boxedOptions)
    #expect(Self.outcome(typed.evaluate(), typed) == Self.outcome(boxed.evaluate(), boxed))
    var typedRuns = 0
    for _ in 0..<25 {
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let node = document.nodes[Int(random.next() % UInt64(document.nodes.count))]
        guard case .success(let configured) = registry.configure(node.data), !configured.signature.inputs.isEmpty else { continue }
        let port = configured.signature.inputs[Int(random.next() % UInt64(configured.signature.inputs.count))]
        let value = Self.randomValue(for: port.type, &random)
        try typed.setUnconnectedInput(#require(typed.input(node.id, port.name)), to: value)
        try boxed.setUnconnectedInput(#require(boxed.input(node.id, port.name)), to: value)
      }
      let typedReport = typed.evaluate(), boxedReport = boxed.evaluate()
      typedRuns += typedReport.evaluationCount
      #expect(Self.outcome(typedReport, typed) == Self.outcome(boxedReport, boxed))
      typed._checkInvariants()
    }
    #expect(typedRuns > 0)
  }
}

/// The example of `Documentation/CustomKinds.md` ("The typed fast path"), verbatim.
struct Hypotenuse: StaticNodeKind {
  var name: String { "hypot" }
  var summary: String { "result = sqrt(a² + b²)" }
  var inputs: [InputPort] { [InputPort("a", .number, default: .number(0)), InputPort("b", .number, default: .number(0))] }
  var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }
  var scalarEvaluation: ScalarEvaluation? { .numbers { a, b in (a * a + b * b).squareRoot() } }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let a = try inputs.number(0), b = try inputs.number(1)
    outputs[0] = .number((a * a + b * b).squareRoot())
  }
}

extension ScalarPathTests {
  @Test func theDocumentedKindRunsTypedAndBoxedAlike() throws {
    var document = FlowDocument()
    document.nodes.append(FlowNode(id: "h", data: NodeSpec(kind: "hypot", params: ["a": .number(3), "b": .number(4)])))
    for typed in [true, false] {
      var options = EngineOptions()
      options.usesScalarEvaluation = typed
      var evaluator = try GraphEvaluator(validating: document, registry: NodeKindRegistry([Hypotenuse()]), options: options)
      #expect(evaluator.evaluate().ran == ["h"])
      #expect(evaluator.value(of: "h", port: "result") == .number(5))
      try evaluator.setUnconnectedInput(#require(evaluator.input("h", "b")), to: .number(4))
      #expect(evaluator.evaluate().ran.isEmpty)
      try evaluator.setUnconnectedInput(#require(evaluator.input("h", "b")), to: .integer(0))
      #expect(evaluator.evaluate().ran == ["h"])
      #expect(evaluator.value(of: "h", port: "result") == .number(3))
    }
  }
}
