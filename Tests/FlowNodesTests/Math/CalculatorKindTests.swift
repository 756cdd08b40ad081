import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

/// The calculator vocabulary of Reference.md, "Node kinds", node by node, through the public registry.
@Suite struct CalculatorKindTests {
  /// Evaluates one node of `kind` with `params`, its inputs left unconnected.
  static func evaluate(_ kind: String, _ params: JSONObject = [:]) throws -> (value: Value?, failure: String?) {
    let document = FlowDocument(nodes: [FlowNode(id: "n", data: NodeSpec(kind: kind, params: params))])
    var evaluator = try GraphEvaluator(validating: document, registry: .standard)
    evaluator.evaluate()
    return (evaluator.outputs(of: "n")?.values.first, evaluator.failure(of: "n"))
  }

  @Test(arguments: [
    ("add", 2.0, 3.0, 5.0), ("subtract", 2, 3, -1), ("multiply", 2, 3, 6), ("divide", 3, 2, 1.5)
  ])
  func arithmeticCombinesItsInputs(kind: String, a: Double, b: Double, result: Double) throws {
    let outcome = try Self.evaluate(kind, ["a": .number(a), "b": .number(b)])
    #expect(outcome.value == .number(result))
    #expect(outcome.failure == nil)
  }

  @Test(arguments: [("add", 0.0), ("subtract", 0), ("multiply", 1), ("divide", 1)])
  func unconnectedInputsTakeTheKindsDefault(kind: String, result: Double) throws {
    #expect(try Self.evaluate(kind).value == .number(result))
  }

  @Test func divisionByZeroIsAnErrorNotInfinity() throws {
    #expect(try Self.evaluate("divide", ["a": 1, "b": 0]).failure == "division by zero")
  }

  @Test func numberOutputsItsValueParam() throws {
    #expect(try Self.evaluate("number", ["value": 7.5]).value == .number(7.5))
    #expect(try Self.evaluate("number").value == .number(0))
  }

  @Test func expressionVariablesBecomeInputsInOrderOfFirstAppearance() throws {
    guard
      case .success(let node) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "expression", params: ["formula": "b * a + b"]))
    else { Issue.record("expression did not configure"); return }
    #expect(node.signature.inputs.map(\.name) == ["b", "a"])
    #expect(node.signature.outputs.map(\.name) == ["result"])
  }

  @Test func expressionParamsNamedLikeVariablesSetThem() throws {
    #expect(try Self.evaluate("expression", ["formula": "x * y + z", "x": 2, "y": 5]).value == .number(10))
  }

  @Test func expressionDivisionByZeroFailsTheNode() throws {
    #expect(try Self.evaluate("expression", ["formula": "1 / x"]).failure == "division by zero")
  }

  @Test func aBadFormulaIsAValidationErrorNamingNodeParamAndColumn() {
    let document = FlowDocument(nodes: [
      FlowNode(id: "f", data: NodeSpec(kind: "expression", params: ["formula": "2 * (x"]))
    ])
    #expect {
      _ = try GraphEvaluator(validating: document, registry: .standard)
    } throws: { error in
      guard let error = error as? GraphValidationError, let issue = error.issues.first else { return false }
      return issue.code == .invalidParameter && issue.nodeIDs == ["f"] && issue.parameter == "formula"
        && issue.message.contains("column")
    }
  }

  @Test(arguments: [
    (["value": "text"] as JSONObject, "value"), (["bogus": 1] as JSONObject, "bogus")
  ])
  func invalidParamsAreRejectedByName(params: JSONObject, parameter: String) {
    let document = FlowDocument(nodes: [FlowNode(id: "n", data: NodeSpec(kind: "number", params: params))])
    #expect {
      _ = try GraphEvaluator(validating: document, registry: .standard)
    } throws: { error in
      (error as? GraphValidationError)?.issues.contains { $0.parameter == parameter && $0.nodeIDs == ["n"] } ?? false
    }
  }

  @Test func aGroupHasNoPortsAndNeverRuns() throws {
    let document = FlowDocument(nodes: [
      FlowNode(id: "g", data: NodeSpec(kind: "group"), acceptsChildren: true, handles: []),
      FlowNode(id: "n", data: NodeSpec(kind: "number", params: ["value": 1]), parentID: "g")
    ])
    var evaluator = try GraphEvaluator(validating: document, registry: .standard)
    let report = evaluator.evaluate()
    #expect(report.ran == ["n"])
    #expect(evaluator.sinks == ["n"])
  }
}
