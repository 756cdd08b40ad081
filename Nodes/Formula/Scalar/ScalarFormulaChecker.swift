/// The checker of the calculator language: checks a ``FormulaSyntax`` parsed in the
/// ``FormulaContext/scalar`` context with the row formulas' one checker (``RowFormulaChecker``,
/// the variables typed as `number` columns of one row), then lowers the ``TypedFormula`` to the
/// postfix program ``Formula`` runs.
///
/// Everything in `expression` is a number, so the checker finds no type error (the parser
/// admits only numbers, variables, arithmetic and the numeric functions): names become
/// variables in order of first appearance, and constant subexpressions are folded as the
/// program is built (except a division or remainder by zero, which must fail at evaluation).
/// One pass over the nodes, in their postfix order, without recursion.
///
/// Precondition: the syntax was parsed in the scalar context (a row-only node is reported as
/// an error, never run).
struct ScalarFormulaChecker {
  struct Compiled: Sendable {
    var program: [FormulaInstruction]
    var variables: [String]
    var maxStackDepth: Int
  }

  private var program: [FormulaInstruction] = []
  private var depth = 0
  private var maxDepth = 0

  /// Checks and lowers `syntax` to a program.
  ///
  /// - Throws: a ``FormulaError`` for a node the calculator language does not have.
  /// - Complexity: O(nodes).
  static func compile(_ syntax: FormulaSyntax) throws(FormulaError) -> Compiled {
    let variables = syntax.names
    var index: [String: Int] = [:]
    for (position, name) in variables.enumerated() { index[name] = position }
    let schema = RowSchema(names: variables, types: Array(repeating: .number, count: variables.count))
    let typed = try RowFormulaChecker.check(syntax, schema: schema, index: index)
    var checker = ScalarFormulaChecker()
    checker.program.reserveCapacity(typed.nodes.count)
    // The typed tree has one node per syntax node, in the same order.
    for (position, node) in typed.nodes.enumerated() {
      switch node.operation {
      case .integer(let value):
        // The same double as the literal's: both are the correctly rounded value of its digits.
        checker.emit(.constant(Double(value)))
      case .number(let value):
        checker.emit(.constant(value))
      case .column(_, let variable?):
        checker.emit(.variable(variable))
      case .negate:
        checker.emitNegate()
      case .arithmetic(let op):
        checker.emitFolding(Self.instruction(op), operands: 2)
      case .call(.numeric(let function), let arguments):
        checker.emitCall(function, arguments: arguments)
      case .call:
        guard case .call(let id, _) = syntax.nodes[position] else {
          preconditionFailure("Internal inconsistency: a typed call from no call node")
        }
        throw syntax.error("'\(FormulaBuiltin[id].name)' is not part of the expression language", atNode: position)
      case .column, .string, .bool, .null, .not, .comparison, .and, .or:
        throw syntax.error("not part of the expression language", atNode: position)
      }
    }
    assert(checker.depth == 1, "a complete formula leaves exactly one value")
    return Compiled(program: checker.program, variables: variables, maxStackDepth: checker.maxDepth)
  }

  private static func instruction(_ op: RowArithmetic) -> FormulaInstruction {
    switch op {
    case .add: .add
    case .subtract: .subtract
    case .multiply: .multiply
    case .divide: .divide
    case .remainder: .remainder
    case .power: .power
    }
  }

  private mutating func emit(_ instruction: FormulaInstruction) {
    depth += instruction.stackEffect
    if depth > maxDepth { maxDepth = depth }
    program.append(instruction)
  }

  private mutating func emitNegate() {
    if program.last == .negate {
      // -(-x) is exactly x.
      program.removeLast()
      return
    }
    emitFolding(.negate, operands: 1)
  }

  private mutating func emitCall(_ function: FormulaFunction, arguments: Int) {
    let instruction: FormulaInstruction
    switch function {
    case .min where arguments == 1, .max where arguments == 1:
      return  // min(x) and max(x) are x
    case .min where arguments > 2:
      instruction = .minimum(count: arguments)
    case .max where arguments > 2:
      instruction = .maximum(count: arguments)
    case .pow:
      instruction = .power
    case .clamp:
      instruction = .clamp
    case .round where arguments == 2:
      instruction = .binary(function)
    case .min, .max, .atan2, .hypot:
      instruction = .binary(function)
    default:
      instruction = .unary(function)
    }
    emitFolding(instruction, operands: arguments)
  }

  /// Emits an operation on the top `operands` values, or, when those values are all
  /// constants, replaces them by the constant result, computed by the evaluator itself so
  /// folding cannot change a result. A division by zero is never folded.
  private mutating func emitFolding(_ instruction: FormulaInstruction, operands: Int) {
    let count = program.count
    if count >= operands {
      var allConstant = true
      for index in (count - operands)..<count {
        guard case .constant = program[index] else {
          allConstant = false
          break
        }
      }
      if allConstant {
        let subprogram = Array(program[(count - operands)...]) + [instruction]
        if let value = Formula.execute(subprogram, values: [], maxStackDepth: operands) {
          program.removeLast(operands)
          program.append(.constant(value))
          depth += instruction.stackEffect
          return
        }
      }
    }
    emit(instruction)
  }
}
