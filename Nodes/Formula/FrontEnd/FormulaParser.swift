/// Parses a formula of either language into its ``FormulaSyntax`` with the shunting-yard
/// algorithm: one precedence parser for `expression` and row formulas, the ``FormulaContext``
/// saying which tokens, words and functions exist.
///
/// The parser keeps its own operator stack and never recurses, so arbitrarily deep nesting or
/// long operator chains cost heap memory, not machine stack. Nodes are appended when an operand
/// is read or an operator is reduced, which is postfix order. Errors are reported as the text is
/// read, so the first problem in the source is the one reported; each carries the 1-based
/// character column. Precedences are those of ``FormulaOperator`` and ``FormulaPrefix``.
struct FormulaParser {
  /// An entry of the operator stack; offsets are UTF-8 offsets of the operator's token.
  enum Pending {
    case binary(FormulaOperator, offset: Int)
    /// A prefix `-` or `not` (a prefix `+` is a no-op and never stacked).
    case prefix(FormulaPrefix, offset: Int)
    /// A `(` that groups, at this UTF-8 offset.
    case group(open: Int)
    /// A call whose `(` is at `open`; `arguments` counts the arguments so far.
    case call(FormulaBuiltin.ID, name: FormulaToken, open: Int, arguments: Int)
  }

  /// What reading a token where an operand was expected did.
  enum OperandStep {
    /// Read an operand: an operator (or the end) comes next.
    case operand
    /// Read a prefix or an opening parenthesis: an operand is still expected.
    case prefix
    /// Opened a call (name and `(`): an argument is expected.
    case call
  }

  let context: FormulaContext
  var lexer: FormulaLexer
  var pending: [Pending] = []
  var syntax: FormulaSyntax
  /// The last token consumed before the current one (the `(` of a call, not its name).
  var previous: FormulaToken?

  init(_ source: String, context: FormulaContext) {
    self.context = context
    lexer = FormulaLexer(source, context: context)
    syntax = FormulaSyntax(source: source)
  }

  /// Parses the whole source. Call once.
  ///
  /// - Throws: a ``FormulaError`` with the 1-based column of the first problem.
  mutating func parse() throws(FormulaError) -> FormulaSyntax {
    var expectingOperand = true
    while true {
      let token = try lexer.next()
      if expectingOperand {
        switch try operand(token) {
        case .operand: expectingOperand = false
        case .prefix: break
        case .call: continue  // `previous` is the call's `(`
        }
      } else if token.kind == .identifier, context.word(lexer.text(of: token)) == .membership {
        try openMembership(at: token)
        expectingOperand = true
        continue  // `previous` is the list's `(`
      } else if let op = binaryOperator(token) {
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
          return syntax
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

  /// Handles a token where an operand is expected.
  private mutating func operand(_ token: FormulaToken) throws(FormulaError) -> OperandStep {
    switch token.kind {
    case .number(let value, let integer):
      syntax.append(.number(value, integer: integer), at: token.start)
    case .string(let text):
      syntax.append(.string(text), at: token.start)
    case .quotedName(let name):
      syntax.append(.name(name), at: token.start)
    case .identifier:
      let name = lexer.text(of: token)
      let word = context.word(name)
      if word != .not, word != .membership, try lexer.peek().kind == .leftParen {
        guard let function = FormulaBuiltin.lookUp(name, in: context) else {
          let hint = FormulaBuiltin.suggestions(for: name, in: context).first.map { " (did you mean '\($0)'?)" } ?? ""
          throw lexer.error("unknown function \(FormulaLexer.quoted(name))\(hint)", atOffset: token.start)
        }
        let open = try lexer.next()
        pending.append(.call(function, name: token, open: open.start, arguments: 1))
        previous = open
        return .call
      }
      switch word {
      case .constant(let value)?: syntax.append(.number(value, integer: nil), at: token.start)
      case .bool(let value)?: syntax.append(.bool(value), at: token.start)
      case .null?: syntax.append(.null, at: token.start)
      case .not?:
        pending.append(.prefix(.not, offset: token.start))
        return .prefix
      case .membership?:
        // Where an operand is expected, `in` is a column's name (as it was before `x in (…)`).
        syntax.append(.name(name), at: token.start)
      case .infix?:
        throw lexer.error("expected an operand before '\(name)'", atOffset: token.start)
      case nil:
        syntax.append(.name(name), at: token.start)
      }
    case .leftParen:
      pending.append(.group(open: token.start))
      return .prefix
    case .minus:
      pending.append(.prefix(.negate, offset: token.start))
      return .prefix
    case .plus:
      return .prefix
    case .rightParen:
      if previous?.kind == .leftParen, case .call(let function, let name, _, _)? = pending.last {
        throw arityError(function, got: 0, name: name)
      }
      throw missingOperand(at: token)
    case .end where previous == nil:
      throw FormulaError(message: "empty formula", column: 1)
    case .comma, .end, .star, .slash, .percent, .caret,
      .less, .lessOrEqual, .equal, .notEqual, .greaterOrEqual, .greater:
      throw missingOperand(at: token)
    }
    return .operand
  }

  /// The binary operator a token stands for where an operator is expected, if any.
  private func binaryOperator(_ token: FormulaToken) -> FormulaOperator? {
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
      if case .infix(let op)? = context.word(lexer.text(of: token)) { op } else { nil }
    default: nil
    }
  }

  // MARK: - Errors

  /// The error for a token that cannot start an operand.
  func missingOperand(at token: FormulaToken) -> FormulaError {
    if let previous, previous.kind != .leftParen, previous.kind != .comma {
      return lexer.error(
        "expected an operand after \(FormulaLexer.quoted(lexer.text(of: previous)))", atOffset: token.start)
    }
    if token.kind == .end {
      return lexer.error("unexpected end of formula", atOffset: token.start)
    }
    return lexer.error("unexpected \(FormulaLexer.quoted(lexer.text(of: token)))", atOffset: token.start)
  }

  func arityError(_ function: FormulaBuiltin.ID, got count: Int, name: FormulaToken) -> FormulaError {
    let builtin = FormulaBuiltin[function]
    return lexer.error("'\(builtin.name)' expects \(builtin.arity.phrase), got \(count)", atOffset: name.start)
  }
}
