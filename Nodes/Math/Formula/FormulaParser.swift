/// Compiles formula source into a postfix program with the shunting-yard algorithm.
///
/// The parser keeps its own operator stack and never recurses, so arbitrarily deep nesting or
/// long operator chains cost heap memory, not machine stack. Constant subexpressions are folded
/// at compile time (except a division or remainder by zero, which must fail at evaluation).
struct FormulaParser {
  struct Compiled: Sendable {
    var program: [FormulaInstruction]
    var variables: [String]
    var maxStackDepth: Int
  }

  /// An entry of the operator stack.
  enum Pending {
    case binary(BinaryOperator)
    /// A unary minus (unary plus is a no-op and never stacked).
    case negate
    /// A `(` that groups, at this UTF-8 offset.
    case group(open: Int)
    /// A function call whose `(` is at `open`; `arguments` counts the arguments so far.
    case call(FormulaFunction, name: FormulaToken, open: Int, arguments: Int)
  }

  private var lexer: FormulaLexer
  private var pending: [Pending] = []
  private var program: [FormulaInstruction] = []
  private var depth = 0
  private var maxDepth = 0
  private var variables: [String] = []
  private var variableIndices: [String: Int] = [:]

  init(_ source: String) {
    lexer = FormulaLexer(source)
  }

  /// Parses the whole source. Call once.
  mutating func compile() throws(FormulaError) -> Compiled {
    var previous: FormulaToken?
    var expectingOperand = true
    while true {
      let token = try lexer.next()
      if expectingOperand {
        switch token.kind {
        case .number(let value):
          emit(.constant(value))
          expectingOperand = false
        case .identifier:
          let name = lexer.text(of: token)
          if try lexer.peek().kind == .leftParen {
            guard let function = FormulaFunction(name: name) else {
              throw lexer.error(
                "unknown function \(FormulaLexer.quoted(name))", atOffset: token.start)
            }
            let open = try lexer.next()
            pending.append(.call(function, name: token, open: open.start, arguments: 1))
            previous = open
            continue
          }
          switch name {
          case "pi": emit(.constant(Double.pi))
          case "e": emit(.constant(2.718281828459045235360287))
          default: emit(.variable(variableIndex(for: name)))
          }
          expectingOperand = false
        case .leftParen:
          pending.append(.group(open: token.start))
        case .minus:
          pending.append(.negate)
        case .plus:
          break
        case .rightParen:
          if previous?.kind == .leftParen, case .call(let function, let name, _, _)? = pending.last {
            throw arityError(function, got: 0, name: name)
          }
          throw missingOperand(at: token, after: previous)
        case .end where previous == nil:
          throw FormulaError(message: "empty formula", column: 1)
        case .comma, .end, .star, .slash, .percent, .caret,
             .string, .quotedName, .less, .lessOrEqual, .equal, .notEqual, .greaterOrEqual, .greater:
          // The row-formula tokens never reach this parser (its lexer does not produce them).
          throw missingOperand(at: token, after: previous)
        }
      } else {
        switch token.kind {
        case .plus, .minus, .star, .slash, .percent, .caret:
          // Every case here is a binary operator.
          let op = BinaryOperator(token.kind) ?? .add
          reduce(before: op)
          pending.append(.binary(op))
          expectingOperand = true
        case .rightParen:
          try closeParenthesis(token)
        case .comma:
          try separateArgument(token)
          expectingOperand = true
        case .end:
          return try finish(at: token)
        case .number, .identifier, .leftParen,
             .string, .quotedName, .less, .lessOrEqual, .equal, .notEqual, .greaterOrEqual, .greater:
          let before = previous.map { lexer.text(of: $0) } ?? ""
          throw lexer.error(
            "missing operator between \(FormulaLexer.quoted(before)) and "
              + FormulaLexer.quoted(lexer.text(of: token)),
            atOffset: token.start)
        }
      }
      previous = token
    }
  }

  // MARK: - Operator stack

  /// Pops and emits the stacked operators that bind tighter than the incoming `op`.
  private mutating func reduce(before op: BinaryOperator) {
    while let top = pending.last {
      switch top {
      case .binary(let stacked)
        where stacked.precedence > op.precedence
          || (stacked.precedence == op.precedence && !op.isRightAssociative):
        pending.removeLast()
        emitBinary(stacked)
      case .negate where Self.prefixPrecedence > op.precedence:
        pending.removeLast()
        emitNegate()
      default:
        return
      }
    }
  }

  /// Pops and emits operators down to the innermost `(`, which is left on the stack.
  /// Returns false when there is no open parenthesis.
  private mutating func reduceToParenthesis() -> Bool {
    while let top = pending.last {
      switch top {
      case .binary(let op):
        pending.removeLast()
        emitBinary(op)
      case .negate:
        pending.removeLast()
        emitNegate()
      case .group, .call:
        return true
      }
    }
    return false
  }

  private mutating func closeParenthesis(_ token: FormulaToken) throws(FormulaError) {
    guard reduceToParenthesis(), let top = pending.popLast() else {
      throw lexer.error("unexpected ')'", atOffset: token.start)
    }
    if case .call(let function, let name, _, let arguments) = top {
      guard function.arity.accepts(arguments) else {
        throw arityError(function, got: arguments, name: name)
      }
      emitCall(function, arguments: arguments)
    }
  }

  private mutating func separateArgument(_ token: FormulaToken) throws(FormulaError) {
    guard reduceToParenthesis(),
       case .call(let function, let name, let open, let arguments)? = pending.last
    else {
      throw lexer.error("unexpected ','", atOffset: token.start)
    }
    pending[pending.count - 1] = .call(function, name: name, open: open, arguments: arguments + 1)
  }

  private mutating func finish(at end: FormulaToken) throws(FormulaError) -> Compiled {
    while let top = pending.popLast() {
      switch top {
      case .binary(let op):
        emitBinary(op)
      case .negate:
        emitNegate()
      case .group(let open), .call(_, _, let open, _):
        throw lexer.error(
          "expected ')' to close '(' opened at column \(lexer.column(atOffset: open))",
          atOffset: end.start)
      }
    }
    assert(depth == 1, "a complete formula leaves exactly one value")
    return Compiled(program: program, variables: variables, maxStackDepth: maxDepth)
  }

  // MARK: - Errors

  /// The error for a token that cannot start an operand.
  private func missingOperand(at token: FormulaToken, after previous: FormulaToken?) -> FormulaError {
    if let previous, previous.isOperator {
      return lexer.error(
        "expected an operand after \(FormulaLexer.quoted(lexer.text(of: previous)))",
        atOffset: token.start)
    }
    if token.kind == .end {
      return lexer.error("unexpected end of formula", atOffset: token.start)
    }
    return lexer.error("unexpected \(FormulaLexer.quoted(lexer.text(of: token)))", atOffset: token.start)
  }

  private func arityError(_ function: FormulaFunction, got count: Int, name: FormulaToken) -> FormulaError {
    lexer.error(
      "'\(function.name)' expects \(function.arity.phrase), got \(count)", atOffset: name.start)
  }

  // MARK: - Emitting

  private mutating func variableIndex(for name: String) -> Int {
    if let index = variableIndices[name] { return index }
    let index = variables.count
    variables.append(name)
    variableIndices[name] = index
    return index
  }

  private mutating func emit(_ instruction: FormulaInstruction) {
    depth += instruction.stackEffect
    if depth > maxDepth { maxDepth = depth }
    program.append(instruction)
  }

  private mutating func emitBinary(_ op: BinaryOperator) {
    emitFolding(op.instruction, operands: 2)
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
