/// Parses a row formula into postfix steps with the shunting-yard algorithm (no recursion, so
/// deep nesting costs heap memory, not machine stack).
///
/// Precedence (higher binds tighter): `or` 1, `and` 2, prefix `not` 3, comparisons 4, `+ -` 5,
/// `* / %` 6, prefix `-` 7, `^` 8 (right-associative). Comparisons do not chain.
struct RowFormulaParser {
  struct Parsed {
    var steps: [RowFormulaStep] = []
    var offsets: [Int] = []
  }

  /// An entry of the operator stack; offsets are UTF-8 offsets of the operator's token.
  enum Pending {
    case binary(Binary, offset: Int)
    /// Prefix `-` (`negate`) or `not`, with its precedence.
    case prefix(RowFormulaStep, precedence: Int, offset: Int)
    case group(open: Int)
    case call(Callee, name: FormulaToken, open: Int, arguments: Int)
  }

  private var lexer: FormulaLexer
  private var pending: [Pending] = []
  private var parsed = Parsed()
  /// The last token consumed before the current one (the `(` of a call, not its name).
  private var previous: FormulaToken?

  init(_ source: String) {
    lexer = FormulaLexer(source, allowsRowSyntax: true)
  }

  /// Parses the whole source. Call once.
  mutating func parse() throws(FormulaError) -> Parsed {
    var expectingOperand = true
    while true {
      let token = try lexer.next()
      if expectingOperand {
        expectingOperand = try operand(token)
        if case .call(_, let name, _, _)? = pending.last, name == token {
          continue  // `previous` is the call's `(`
        }
      } else if let op = try binaryOperator(token) {
        try reduce(before: op, at: token)
        pending.append(.binary(op, offset: token.start))
        expectingOperand = true
      } else {
        switch token.kind {
        case .rightParen:
          try closeParenthesis(token)
        case .comma:
          try separateArgument(token)
          expectingOperand = true
        case .end:
          try finish(at: token)
          return parsed
        default:
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

  /// Handles a token where an operand is expected; returns whether an operand is still expected.
  private mutating func operand(_ token: FormulaToken) throws(FormulaError) -> Bool {
    switch token.kind {
    case .number(let value):
      let text = lexer.text(of: token)
      if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let integer = Int64(text) {
        emit(.integer(integer), at: token.start)
      } else {
        emit(.number(value), at: token.start)
      }
    case .string(let text):
      emit(.string(text), at: token.start)
    case .quotedName(let name):
      emit(.column(name), at: token.start)
    case .identifier:
      let name = lexer.text(of: token)
      if name != "not", try lexer.peek().kind == .leftParen {
        let callee: Callee
        switch name {
        case "if": callee = .choose
        case "isNull": callee = .isNull
        default:
          guard let function = FormulaFunction(name: name) else {
            throw lexer.error("unknown function \(FormulaLexer.quoted(name))", atOffset: token.start)
          }
          callee = .function(function)
        }
        let open = try lexer.next()
        pending.append(.call(callee, name: token, open: open.start, arguments: 1))
        previous = open
        return true
      }
      switch name {
      case "pi": emit(.number(Double.pi), at: token.start)
      case "e": emit(.number(2.718281828459045235360287), at: token.start)
      case "true": emit(.bool(true), at: token.start)
      case "false": emit(.bool(false), at: token.start)
      case "null": emit(.null, at: token.start)
      case "not":
        pending.append(.prefix(.not, precedence: 3, offset: token.start))
        return true
      case "and", "or":
        throw lexer.error("expected an operand before '\(name)'", atOffset: token.start)
      default: emit(.column(name), at: token.start)
      }
    case .leftParen:
      pending.append(.group(open: token.start))
      return true
    case .minus:
      pending.append(.prefix(.negate, precedence: 7, offset: token.start))
      return true
    case .plus:
      return true
    case .rightParen:
      if previous?.kind == .leftParen, case .call(let callee, let name, _, _)? = pending.last {
        throw arityError(callee, got: 0, name: name)
      }
      throw missingOperand(at: token, after: previous)
    case .end where previous == nil:
      throw FormulaError(message: "empty formula", column: 1)
    default:
      throw missingOperand(at: token, after: previous)
    }
    return false
  }

  /// The binary operator a token stands for where an operator is expected, if any.
  private func binaryOperator(_ token: FormulaToken) throws(FormulaError) -> Binary? {
    switch token.kind {
    case .plus: .arithmetic(.add)
    case .minus: .arithmetic(.subtract)
    case .star: .arithmetic(.multiply)
    case .slash: .arithmetic(.divide)
    case .percent: .arithmetic(.remainder)
    case .caret: .arithmetic(.power)
    case .less: .comparison(.less)
    case .lessOrEqual: .comparison(.lessOrEqual)
    case .equal: .comparison(.equal)
    case .notEqual: .comparison(.notEqual)
    case .greaterOrEqual: .comparison(.greaterOrEqual)
    case .greater: .comparison(.greater)
    case .identifier:
      switch lexer.text(of: token) {
      case "and": .and
      case "or": .or
      default: nil
      }
    default: nil
    }
  }

  // MARK: - Operator stack

  /// Pops and emits the stacked operators that bind tighter than the incoming `op`.
  private mutating func reduce(before op: Binary, at token: FormulaToken) throws(FormulaError) {
    let precedence = op.precedence
    while let top = pending.last {
      switch top {
      case .binary(let stacked, let offset)
        where stacked.precedence > precedence || (stacked.precedence == precedence && op != .arithmetic(.power)):
        if case .comparison = stacked, case .comparison = op {
          throw lexer.error(
            "comparisons do not chain: write '(a \(lexer.text(of: token)) b)' or join them with 'and'",
            atOffset: token.start)
        }
        pending.removeLast()
        emit(stacked.step, at: offset)
      case .prefix(let step, let stackedPrecedence, let offset) where stackedPrecedence > precedence:
        pending.removeLast()
        emit(step, at: offset)
      default:
        return
      }
    }
  }

  /// Pops and emits operators down to the innermost `(`; false when there is none.
  private mutating func reduceToParenthesis() -> Bool {
    while let top = pending.last {
      switch top {
      case .binary(let op, let offset):
        pending.removeLast()
        emit(op.step, at: offset)
      case .prefix(let step, _, let offset):
        pending.removeLast()
        emit(step, at: offset)
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
    if case .call(let callee, let name, _, let arguments) = top {
      guard callee.arity.accepts(arguments) else { throw arityError(callee, got: arguments, name: name) }
      switch callee {
      case .function(let function): emit(.call(function, arguments: arguments), at: name.start)
      case .isNull: emit(.isNull, at: name.start)
      case .choose: emit(.choose, at: name.start)
      }
    }
  }

  private mutating func separateArgument(_ token: FormulaToken) throws(FormulaError) {
    guard reduceToParenthesis(), case .call(let callee, let name, let open, let arguments)? = pending.last else {
      throw lexer.error("unexpected ','", atOffset: token.start)
    }
    pending[pending.count - 1] = .call(callee, name: name, open: open, arguments: arguments + 1)
  }

  private mutating func finish(at end: FormulaToken) throws(FormulaError) {
    while let top = pending.popLast() {
      switch top {
      case .binary(let op, let offset):
        emit(op.step, at: offset)
      case .prefix(let step, _, let offset):
        emit(step, at: offset)
      case .group(let open), .call(_, _, let open, _):
        throw lexer.error(
          "expected ')' to close '(' opened at column \(lexer.column(atOffset: open))", atOffset: end.start)
      }
    }
  }

  // MARK: - Errors and emitting

  private func missingOperand(at token: FormulaToken, after previous: FormulaToken?) -> FormulaError {
    if let previous, previous.kind != .leftParen, previous.kind != .comma {
      return lexer.error(
        "expected an operand after \(FormulaLexer.quoted(lexer.text(of: previous)))", atOffset: token.start)
    }
    if token.kind == .end {
      return lexer.error("unexpected end of formula", atOffset: token.start)
    }
    return lexer.error("unexpected \(FormulaLexer.quoted(lexer.text(of: token)))", atOffset: token.start)
  }

  private func arityError(_ callee: Callee, got count: Int, name: FormulaToken) -> FormulaError {
    lexer.error("'\(callee.name)' expects \(callee.arity.phrase), got \(count)", atOffset: name.start)
  }

  private mutating func emit(_ step: RowFormulaStep, at offset: Int) {
    parsed.steps.append(step)
    parsed.offsets.append(offset)
  }
}
