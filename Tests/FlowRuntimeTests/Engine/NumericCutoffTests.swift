import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

/// Early cutoff on numbers: `0` and `-0` are the same value, a NaN stays a NaN.
@Suite struct NumericCutoffTests {
  /// `root → after (+ 1)`, where `root` is a node of `kind` with `params`, evaluated once.
  static func rootThenAfter(_ kind: String, _ params: JSONObject) throws -> GraphEvaluator {
    var graphs = Graphs()
    graphs.node("root", kind, params)
    graphs.node("after", "add", ["b": 1])
    graphs.edge("root", to: "after", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    return evaluator
  }

  @Test(arguments: [(0.0, -0.0), (-0.0, 0.0)])
  func zeroToNegativeZeroIsNoChange(from: Double, to: Double) throws {
    var evaluator = try Self.rootThenAfter("multiply", ["a": .number(from), "b": 1])
    try evaluator.setUnconnectedInput(#require(evaluator.input("root", "a")), to: .number(to))
    let report = evaluator.evaluate()
    #expect(report.ran.isEmpty || report.ran == ["root"], "\(report.ran)")
    #expect(!report.ran.contains("after"))
  }

  @Test func zeroToNegativeZeroOutputIsCutOff() throws {
    var evaluator = try Self.rootThenAfter("multiply", ["a": 0, "b": 1])
    // 0 * -1 = -0: the root's output goes from 0 to -0.
    try evaluator.setUnconnectedInput(#require(evaluator.input("root", "b")), to: .number(-1))
    let report = evaluator.evaluate()
    #expect(report.ran == ["root"])
    #expect(report.cutOff == ["root"])
  }

  @Test func aNaNThatStaysNaNIsCutOff() throws {
    var evaluator = try Self.rootThenAfter("expression", ["formula": "sqrt(x)", "x": -1])
    try evaluator.setUnconnectedInput(#require(evaluator.input("root", "x")), to: .number(-4))
    let report = evaluator.evaluate()
    #expect(report.ran == ["root"])
    #expect(report.cutOff == ["root"])
  }

  @Test func aRealChangeStillPropagates() throws {
    var evaluator = try Self.rootThenAfter("multiply", ["a": 0, "b": 1])
    try evaluator.setUnconnectedInput(#require(evaluator.input("root", "a")), to: .number(2))
    let report = evaluator.evaluate()
    #expect(report.ran == ["root", "after"])
    #expect(evaluator.value(of: "after", port: "result") == .number(3))
  }

  @Test func isIdenticalTreatsSignedZerosAsEqualAndNaNsAsEqual() {
    #expect(Value.number(0).isIdentical(to: .number(-0.0)))
    #expect(Value.number(.nan).isIdentical(to: .number(-.nan)))
    #expect(!Value.number(0).isIdentical(to: .number(.nan)))
    #expect(!Value.number(1).isIdentical(to: .number(1.0000000000000002)))
  }
}

extension NumericCutoffTests {
  @Test func stringsThatAreCanonicallyEquivalentButDifferentScalarsAreAChange() {
    let composed = Value.string("\u{E9}")
    let decomposed = Value.string("e\u{301}")
    #expect(!composed.isIdentical(to: decomposed))
    #expect(composed.isIdentical(to: .string("\u{E9}")))
  }
}
