import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

/// Early cutoff on numbers: `0` and `-0` are the same value, a NaN stays a NaN.
@Suite struct NumericCutoffTests {
  @Test(arguments: [(0.0, -0.0), (-0.0, 0.0)])
  func zeroToNegativeZeroIsNoChange(from: Double, to: Double) throws {
    var graphs = Graphs()
    graphs.node("product", "multiply", ["a": .number(from), "b": 1])
    graphs.node("after", "add", ["b": 1])
    graphs.edge("product", to: "after", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("product", "a")), to: .number(to))
    let report = evaluator.evaluate()
    #expect(report.ran.isEmpty || report.ran == ["product"], "\(report.ran)")
    #expect(!report.ran.contains("after"))
  }

  @Test func zeroToNegativeZeroOutputIsCutOff() throws {
    var graphs = Graphs()
    graphs.node("product", "multiply", ["a": 0, "b": 1])
    graphs.node("after", "add", ["b": 1])
    graphs.edge("product", to: "after", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    // 0 * -1 = -0: the product's output goes from 0 to -0.
    try evaluator.setUnconnectedInput(#require(evaluator.input("product", "b")), to: .number(-1))
    let report = evaluator.evaluate()
    #expect(report.ran == ["product"])
    #expect(report.cutOff == ["product"])
  }

  @Test func aNaNThatStaysNaNIsCutOff() throws {
    var graphs = Graphs()
    graphs.node("root", "expression", ["formula": "sqrt(x)", "x": -1])
    graphs.node("after", "add", ["b": 1])
    graphs.edge("root", to: "after", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("root", "x")), to: .number(-4))
    let report = evaluator.evaluate()
    #expect(report.ran == ["root"])
    #expect(report.cutOff == ["root"])
  }

  @Test func aRealChangeStillPropagates() throws {
    var graphs = Graphs()
    graphs.node("product", "multiply", ["a": 0, "b": 1])
    graphs.node("after", "add", ["b": 1])
    graphs.edge("product", to: "after", "a")
    var evaluator = try graphs.evaluator()
    evaluator.evaluate()
    try evaluator.setUnconnectedInput(#require(evaluator.input("product", "a")), to: .number(2))
    let report = evaluator.evaluate()
    #expect(report.ran == ["product", "after"])
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
