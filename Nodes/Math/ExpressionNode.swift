import FlowRuntime

/// `expression`: evaluates its `formula` param; each variable of the formula is a number input,
/// in order of first appearance (0 while unconnected, unless a param of that name sets it).
struct ExpressionNode: NodeKind {
  /// Pure: its instance holds only what its params set.
  var sharesConfiguration: Bool { true }
  var name: String { "expression" }
  var summary: String { "result = formula over its variables (inputs), e.g. \"pi * r^2\"" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "formula", .string, required: true, summary: "+ - * / % ^, parentheses, pi, e, sqrt abs min max round …")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let formula: Formula
    do {
      formula = try Formula(parsing: parameters.string("formula") ?? "")
    } catch {
      throw NodeConfigurationError(parameter: "formula", reason: "does not parse: \(error.description)")
    }
    return NodeInstance(
      inputs: formula.variables.map { InputPort($0, .number, default: .number(0)) },
      outputs: [PortDeclaration("result", .number)], evaluator: Evaluator(formula: formula))
  }

  struct Evaluator: NodeEvaluator {
    let formula: Formula

    /// Runs the formula compiled at `instantiate`, reading the inputs in place (no allocation).
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = .number(try formula.evaluate(reading: inputs))
    }
  }
}

extension ExpressionNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
