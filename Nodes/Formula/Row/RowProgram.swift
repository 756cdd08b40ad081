import FlowRuntime

/// One step of a ``RowProgram``: a parsed step, or a column resolved to its index.
enum RowInstruction: Sendable, Hashable {
  case step(RowFormulaStep)
  case column(Int)
  /// A comparison whose right operand is this (non-null) literal, not broadcast to a column.
  case compareWithLiteral(RowComparison, RowFormulaStep)
  /// Arithmetic whose right operand is this numeric literal, not broadcast to a column.
  case arithmeticWithLiteral(RowArithmetic, RowFormulaStep)
  /// `+`, `-` or `*` whose left operand is this numeric literal (`1 - x`), not broadcast to a
  /// column; the literal's own instruction became `.literalTaken`.
  case literalArithmetic(RowArithmetic, RowFormulaStep)
  /// A literal that the arithmetic after its right operand applies itself: nothing to do.
  case literalTaken
  /// `x in (…)` whose items are these (non-null) literals: `x` is compared with each literal,
  /// none broadcast to a column (a dictionary column compares once per entry).
  case memberOfLiterals([RowFormulaStep])
  /// `like(s, "…")` whose pattern is this literal, compiled once (not broadcast to a column).
  case likeLiteral(LikePattern)
}

/// A row formula compiled against one table schema: postfix instructions that each transform
/// whole columns (a stack of ``RowVector``s), so the per-row work is tight loops over typed
/// arrays rather than a lookup per row.
///
/// Made by ``RowFormulaChecker``; valid for the schema it was checked against.
struct RowProgram: Sendable {
  let instructions: [RowInstruction]
  /// The UTF-8 offset of each instruction's token in `source`, for evaluation errors.
  let offsets: [Int]
  let source: String
  /// The type of the result (``RowType/unknown`` only for a program checked without schema).
  let resultType: RowType
  let maxDepth: Int

  /// Evaluates the program over columns of `rowCount` rows.
  ///
  /// - Parameter columns: the table's columns, in schema order.
  /// - Throws: a ``FormulaError`` for an integer overflow (naming the operator's column and the
  ///   row), or
  ///   for a date function's row that has no answer (naming the column, the row and the text).
  /// - Complexity: O(instructions × rows).
  func evaluate(columns: [RowVector], rowCount: Int) throws(FormulaError) -> RowVector {
    try evaluate(rowCount: rowCount) { columns[$0] }
  }

  /// Evaluates the program over columns of `rowCount` rows, asking `column` for each column
  /// the program reads (by its position in the schema).
  ///
  /// - Parameter memory: the run's limits, if the string kernels (`concat`, `replace`) must
  ///   check the memory limit while they build (`derive`); `nil`: they do not.
  /// - Complexity: O(instructions × rows).
  func evaluate(rowCount: Int, memory: RunLimits? = nil, column: (Int) -> RowVector) throws(FormulaError) -> RowVector {
    var stack: [RowVector] = []
    stack.reserveCapacity(maxDepth)
    for (position, instruction) in instructions.enumerated() {
      let step: RowFormulaStep
      switch instruction {
      case .column(let index):
        stack.append(column(index))
        continue
      case .compareWithLiteral(let op, let literal):
        stack.append(RowVector.compare(op, stack.removeLast(), literal: literal, count: rowCount))
        continue
      case .memberOfLiterals(let items):
        stack.append(RowVector.membership(stack.removeLast(), literals: items, count: rowCount))
        continue
      case .likeLiteral(let pattern):
        stack.append(RowVector.like(stack.removeLast(), pattern: pattern, count: rowCount))
        continue
      case .literalTaken:
        continue
      case .literalArithmetic(let op, let literal):
        let operand = stack.removeLast()
        guard let result = RowVector.arithmetic(op, literal: literal, operand, count: rowCount) else {
          let row = RowVector.firstOverflowRow(op, .broadcast(literal, count: rowCount), operand, count: rowCount)
          throw overflow(op.symbol, at: position, row: row)
        }
        stack.append(result)
        continue
      case .arithmeticWithLiteral(let op, let literal):
        let operand = stack.removeLast()
        guard let result = RowVector.arithmetic(op, operand, literal: literal, count: rowCount) else {
          let row = RowVector.firstOverflowRow(op, operand, .broadcast(literal, count: rowCount), count: rowCount)
          throw overflow(op.symbol, at: position, row: row)
        }
        stack.append(result)
        continue
      case .step(let parsed):
        step = parsed
      }
      switch step {
      case .integer, .number, .string, .bool, .null:
        stack.append(.broadcast(step, count: rowCount))
      case .column:
        preconditionFailure("Internal inconsistency: unresolved column in a checked program")
      case .negate:
        let operand = stack.removeLast()
        guard let result = operand.negated() else {
          throw overflow("-", at: position, row: operand.firstNegationOverflowRow())
        }
        stack.append(result)
      case .not:
        stack.append(stack.removeLast().negatedLogically())
      case .arithmetic(let op):
        let right = stack.removeLast(), left = stack.removeLast()
        guard let result = RowVector.arithmetic(op, left, right, count: rowCount) else {
          throw overflow(op.symbol, at: position, row: RowVector.firstOverflowRow(op, left, right, count: rowCount))
        }
        stack.append(result)
      case .comparison(let op):
        let right = stack.removeLast(), left = stack.removeLast()
        stack.append(RowVector.compare(op, left, right, count: rowCount))
      case .and, .or:
        let right = stack.removeLast(), left = stack.removeLast()
        stack.append(RowVector.logic(isAnd: step == .and, left, right, count: rowCount))
      case .call(let function, let arguments):
        let operands = Array(stack.suffix(arguments))
        stack.removeLast(arguments)
        stack.append(RowVector.call(function, operands, count: rowCount))
      case .date(let function, let sources):
        let arguments = function.arguments.count
        let operands = Array(stack.suffix(arguments))
        stack.removeLast(arguments)
        do {
          stack.append(try RowVector.date(function, operands, count: rowCount))
        } catch {
          throw error.error(function, sources: sources)
        }
      case .isNull:
        stack.append(stack.removeLast().nullTest(count: rowCount))
      case .choose:
        let otherwise = stack.removeLast(), then = stack.removeLast(), condition = stack.removeLast()
        stack.append(RowVector.choose(condition, then, otherwise, count: rowCount))
      case .text(let function, let arguments):
        let operands = Array(stack.suffix(arguments))
        stack.removeLast(arguments)
        stack.append(
          try RowVector.text(function, operands, count: rowCount, memory: memory) { message in
            FormulaError(message: message, column: FormulaLexer.column(in: source, atOffset: offsets[position]))
          })
      case .coalesce(let arguments):
        let operands = Array(stack.suffix(arguments))
        stack.removeLast(arguments)
        stack.append(RowVector.coalesced(operands, count: rowCount))
      case .member(let arguments):
        let operands = Array(stack.suffix(arguments))
        stack.removeLast(arguments)
        stack.append(RowVector.membership(operands, count: rowCount))
      }
    }
    return stack.last ?? .null
  }

  /// `integer overflow in '+' at row 7`: the operator (its character column) and the 1-based
  /// row of the evaluation, as the date and `number` errors name theirs.
  private func overflow(_ symbol: String, at position: Int, row: Int?) -> FormulaError {
    FormulaError(
      message: "integer overflow in '\(symbol)'" + (row.map { " at row \($0 + 1)" } ?? ""),
      column: FormulaLexer.column(in: source, atOffset: offsets[position]))
  }
}
