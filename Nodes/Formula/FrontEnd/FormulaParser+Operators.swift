/// The operator stack of ``FormulaParser``: reductions at an operator, a `)`, a `,` and the end.
extension FormulaParser {
  /// Pops into the tree the stacked operators that bind tighter than the incoming `op` (or as
  /// tight, when `op` is left-associative).
  ///
  /// - Throws: for a comparison after a comparison (`a < b < c`): comparisons do not chain.
  mutating func reduce(before op: FormulaOperator, at token: FormulaToken) throws(FormulaError) {
    let precedence = op.precedence
    while let top = pending.last {
      switch top {
      case .binary(let stacked, let offset)
      where stacked.precedence > precedence || (stacked.precedence == precedence && !op.isRightAssociative):
        if case .comparison = stacked, case .comparison = op {
          throw lexer.error(
            "comparisons do not chain: write '(a \(lexer.text(of: token)) b)' or join them with 'and'",
            atOffset: token.start)
        }
        pending.removeLast()
        syntax.append(.binary(stacked), at: offset)
      case .prefix(let prefix, let offset) where prefix.precedence > precedence:
        pending.removeLast()
        syntax.append(.prefix(prefix), at: offset)
      default:
        return
      }
    }
  }

  /// Pops operators into the tree down to the innermost `(`, which is left on the stack.
  /// Returns false when there is no open parenthesis.
  private mutating func reduceToParenthesis() -> Bool {
    while let top = pending.last {
      switch top {
      case .binary(let op, let offset):
        pending.removeLast()
        syntax.append(.binary(op), at: offset)
      case .prefix(let prefix, let offset):
        pending.removeLast()
        syntax.append(.prefix(prefix), at: offset)
      case .group, .call:
        return true
      }
    }
    return false
  }

  /// Closes a group or a call (checking the call's argument count).
  mutating func closeParenthesis(_ token: FormulaToken) throws(FormulaError) {
    guard reduceToParenthesis(), let top = pending.popLast() else {
      throw lexer.error("unexpected ')'", atOffset: token.start)
    }
    if case .call(let function, let name, _, let arguments) = top {
      guard FormulaBuiltin[function].arity.accepts(arguments) else {
        throw arityError(function, got: arguments, name: name)
      }
      syntax.append(.call(function, arguments: arguments), at: name.start)
    }
  }

  /// Ends one argument of the innermost call.
  mutating func separateArgument(_ token: FormulaToken) throws(FormulaError) {
    guard reduceToParenthesis(), case .call(let function, let name, let open, let arguments)? = pending.last else {
      throw lexer.error("unexpected ','", atOffset: token.start)
    }
    pending[pending.count - 1] = .call(function, name: name, open: open, arguments: arguments + 1)
  }

  /// Reads `in (` after the operand `x` of `x in (a, b, …)`: the list becomes the arguments of a
  /// call of `in` whose first argument is `x` (already in the tree), so `)` closes it as it
  /// closes any call. `in` binds as a comparison (`a + 1 in (2, 3)` tests `a + 1`).
  mutating func openMembership(at token: FormulaToken) throws(FormulaError) {
    try reduce(before: .comparison(.equal), at: token)
    let open = try lexer.next()
    guard open.kind == .leftParen else {
      throw lexer.error("expected '(' after 'in', as in 'x in (1, 2)'", atOffset: open.start)
    }
    guard let function = FormulaBuiltin.lookUp("in", in: context) else {
      preconditionFailure("Internal inconsistency: the row language lacks 'in'")
    }
    pending.append(.call(function, name: token, open: open.start, arguments: 2))
    previous = open
  }

  /// Pops the remaining operators at the end of the text.
  ///
  /// - Throws: when a `(` is still open (naming the innermost).
  mutating func finish(at end: FormulaToken) throws(FormulaError) {
    while let top = pending.popLast() {
      switch top {
      case .binary(let op, let offset):
        syntax.append(.binary(op), at: offset)
      case .prefix(let prefix, let offset):
        syntax.append(.prefix(prefix), at: offset)
      case .group(let open), .call(_, _, let open, _):
        throw lexer.error(
          "expected ')' to close '(' opened at column \(lexer.column(atOffset: open))", atOffset: end.start)
      }
    }
  }
}
