/// Lowering a checked formula to the row back end's instructions.
extension RowProgram {
  /// The program of `typed`, a formula checked against the schema the program will run on:
  /// one instruction per node, except that `column op literal` applies (or compares against)
  /// the literal, `x in (literals…)` compares with each literal, and `like(s, "pattern")`
  /// compiles its pattern once, without broadcasting it to a column.
  ///
  /// - Precondition: `typed` was checked against a schema (its columns have positions).
  /// - Complexity: O(nodes).
  init(compiling typed: TypedFormula) {
    var instructions: [RowInstruction] = []
    var offsets: [Int] = []
    instructions.reserveCapacity(typed.nodes.count)
    offsets.reserveCapacity(typed.nodes.count)
    // The column each value on the stack reads directly (nil for any other expression): the
    // date functions name it in the message for a text that is not a date.
    var sources: [String?] = []
    // The first instruction of each value on the stack (a left operand that is one literal
    // instruction is applied by the arithmetic itself).
    var starts: [Int] = []
    var maxDepth = 0
    for (position, node) in typed.nodes.enumerated() {
      let operation = node.operation
      let operands = operation.operandCount
      var instruction: RowInstruction
      switch operation {
      case .integer(let value): instruction = .step(.integer(value))
      case .number(let value): instruction = .step(.number(value))
      case .string(let text): instruction = .step(.string(text))
      case .bool(let value): instruction = .step(.bool(value))
      case .null: instruction = .step(.null)
      case .column(let name, let column):
        instruction = column.map(RowInstruction.column) ?? .step(.column(name))
      case .negate: instruction = .step(.negate)
      case .not: instruction = .step(.not)
      case .and: instruction = .step(.and)
      case .or: instruction = .step(.or)
      case .arithmetic(let op):
        instruction = .step(.arithmetic(op))
        // The right operand is the node just before; its instruction is the last one.
        if typed.nodes[position - 1].type.isNumeric, case .step(let literal)? = instructions.last, literal.isLiteral {
          instructions.removeLast()
          offsets.removeLast()
          instruction = .arithmeticWithLiteral(op, literal)
        } else if op == .add || op == .subtract || op == .multiply, typed.nodes[position - 1].type.isNumeric,
          starts.count >= 2, starts[starts.count - 1] == starts[starts.count - 2] + 1,
          case .step(let literal) = instructions[starts[starts.count - 2]], literal.isNumericLiteral
        {
          instructions[starts[starts.count - 2]] = .literalTaken
          instruction = .literalArithmetic(op, literal)
        }
      case .comparison(let op):
        instruction = .step(.comparison(op))
        if typed.nodes[position - 1].type != .null, case .step(let literal)? = instructions.last, literal.isLiteral {
          instructions.removeLast()
          offsets.removeLast()
          instruction = .compareWithLiteral(op, literal)
        }
      case .call(let function, let arguments):
        switch function {
        case .numeric(let function): instruction = .step(.call(function, arguments: arguments))
        case .isNull: instruction = .step(.isNull)
        case .choose: instruction = .step(.choose)
        case .date(let function): instruction = .step(.date(function, sources: Array(sources.suffix(arguments))))
        case .text(let function):
          instruction = .step(.text(function, arguments: arguments))
          // `like(s, "pattern")`: the pattern is the node just before, its instruction the last.
          if arguments == 2, case .step(.string(let pattern))? = instructions.last,
            let literal = Self.likePattern(function, pattern)
          {
            instructions.removeLast()
            offsets.removeLast()
            instruction = .likeLiteral(literal)
          }
        case .coalesce: instruction = .step(.coalesce(arguments: arguments))
        case .member:
          instruction = .step(.member(arguments: arguments))
          // Items that are non-null literals (the nodes just before, one instruction each).
          let items = arguments - 1
          let literals = instructions.suffix(items).compactMap { instruction -> RowFormulaStep? in
            if case .step(let step) = instruction, step.isLiteral, step != .null { return step }
            return nil
          }
          if items > 0, literals.count == items,
            typed.nodes[(position - items)..<position].allSatisfy({ $0.type != .null })
          {
            instructions.removeLast(items)
            offsets.removeLast(items)
            instruction = .memberOfLiterals(literals)
          }
        }
      }
      sources.removeLast(operands)
      if case .column(let name, _) = operation { sources.append(name) } else { sources.append(nil) }
      // The value starts at its first operand's first instruction, or here; removed
      // instructions (a literal folded into this one) were the last ones, after every start.
      let start = operands > 0 ? starts[starts.count - operands] : instructions.count
      starts.removeLast(operands)
      starts.append(Swift.min(start, instructions.count))
      maxDepth = max(maxDepth, sources.count)
      instructions.append(instruction)
      offsets.append(node.offset)
    }
    self.init(
      instructions: instructions, offsets: offsets, source: typed.source, resultType: typed.resultType,
      maxDepth: maxDepth)
  }
}

extension RowProgram {
  /// The `like` pattern that `function(s, literal)` is: `like` itself, or `contains`,
  /// `startsWith` and `endsWith` as `%literal%`, `literal%` and `%literal` with `%`, `_` and
  /// `\` escaped — so a literal is compiled once and searched for with `memchr`, never
  /// broadcast to a column of copies. `nil` for other functions.
  static func likePattern(_ function: FormulaTextFunction, _ literal: String) -> LikePattern? {
    var escaped: [UInt8] = []
    if function != .like {
      for byte in literal.utf8 {
        if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "\\") {
          escaped.append(UInt8(ascii: "\\"))
        }
        escaped.append(byte)
      }
    }
    let percent = [UInt8(ascii: "%")]
    switch function {
    case .like: return LikePattern(Array(literal.utf8))
    case .contains: return LikePattern(percent + escaped + percent)
    case .startsWith: return LikePattern(escaped + percent)
    case .endsWith: return LikePattern(percent + escaped)
    default: return nil
    }
  }
}
