import FlowTestSupport

/// A randomly generated formula tree, written out with only the parentheses the precedences
/// need, so parsing it back exercises precedence and associativity rather than parentheses.
indirect enum GeneratedFormula {
  /// A literal or word as written: `3`, `2.5`, `pi`, `"a"`, `true`, `null`.
  case literal(String)
  case name(String, backticked: Bool)
  case negate(GeneratedFormula)
  case not(GeneratedFormula)
  /// A binary operator by its symbol: `+ - * / % ^ < <= == != >= > and or`.
  case binary(String, GeneratedFormula, GeneratedFormula)
  case call(String, [GeneratedFormula])

  /// The precedence of the formula's outermost operator (10 for an operand).
  var precedence: Int {
    switch self {
    case .literal, .name, .call: 10
    case .negate: 7
    case .not: 3
    case .binary(let op, _, _): Self.precedence(of: op)
    }
  }

  static func precedence(of op: String) -> Int {
    switch op {
    case "or": 1
    case "and": 2
    case "+", "-": 5
    case "*", "/", "%": 6
    case "^": 8
    default: 4  // comparisons
    }
  }

  /// The formula as text.
  var text: String {
    switch self {
    case .literal(let text): return text
    case .name(let name, let backticked): return backticked ? "`\(name)`" : name
    case .negate(let operand): return "-" + Self.wrap(operand, if: operand.precedence < 7)
    case .not(let operand): return "not " + Self.wrap(operand, if: operand.precedence < 3)
    case .call(let name, let arguments): return "\(name)(\(arguments.map(\.text).joined(separator: ", ")))"
    case .binary(let op, let left, let right):
      let precedence = Self.precedence(of: op)
      let isComparison = precedence == 4
      let rightAssociative = op == "^"
      let wrapLeft =
        left.precedence < precedence || (left.precedence == precedence && (rightAssociative || isComparison))
      let wrapRight = right.precedence < precedence || (right.precedence == precedence && !rightAssociative)
      return "\(Self.wrap(left, if: wrapLeft)) \(op) \(Self.wrap(right, if: wrapRight))"
    }
  }

  private static func wrap(_ formula: GeneratedFormula, if needed: Bool) -> String {
    needed ? "(\(formula.text))" : formula.text
  }
}

/// Draws from a seeded generator.
struct FormulaDraw {
  var random: SeededRandom

  mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[int(choices.count)] }

  /// A numeric formula of the calculator language over `names`.
  mutating func scalar(depth: Int, names: [String]) -> GeneratedFormula {
    if depth <= 0 || int(4) == 0 {
      switch int(4) {
      case 0: return .literal("\(int(13))")
      case 1: return .literal(pick(["2.5", "0.25", "1e2", ".5", "pi", "e"]))
      default: return .name(pick(names), backticked: false)
      }
    }
    switch int(6) {
    case 0, 1, 2:
      let op = pick(["+", "-", "*", "/", "%", "^", "+", "-", "*"])
      return .binary(op, scalar(depth: depth - 1, names: names), scalar(depth: depth - 1, names: names))
    case 3:
      return .negate(scalar(depth: depth - 1, names: names))
    default:
      let (name, count) = pick([
        ("sqrt", 1), ("abs", 1), ("floor", 1), ("ceil", 1), ("round", 1), ("sin", 1),
        ("cos", 1), ("tan", 1), ("log", 1), ("exp", 1), ("pow", 2), ("min", 1 + int(3)),
        ("max", 1 + int(3)), ("clamp", 3), ("hypot", 2), ("round", 2)
      ])
      return .call(name, (0..<count).map { _ in scalar(depth: depth - 1, names: names) })
    }
  }

  /// What a generated row formula gives.
  enum Kind { case numeric, bool, string }

  /// A well-typed row formula of `kind` over the columns `a` (integer), `b` and `body mass`
  /// (number), `s` (string) and `f` (bool).
  mutating func row(_ kind: Kind, depth: Int) -> GeneratedFormula {
    let leaf = depth <= 0 || int(3) == 0
    switch kind {
    case .numeric:
      if leaf {
        switch int(6) {
        case 0: return .literal("\(int(10))")
        case 1: return .literal(pick(["1.5", "0.25", "2e1", "pi"]))
        case 2: return .literal("null")
        case 3: return .name("body mass", backticked: true)
        default: return .name(pick(["a", "b"]), backticked: int(4) == 0)
        }
      }
      switch int(6) {
      case 0, 1:
        return .binary(
          pick(["+", "-", "*", "/", "%", "^"]), row(.numeric, depth: depth - 1), row(.numeric, depth: depth - 1))
      case 2:
        return .negate(row(.numeric, depth: depth - 1))
      case 3:
        let (name, count) = pick([
          ("sqrt", 1), ("abs", 1), ("floor", 1), ("round", 1), ("pow", 2), ("min", 1 + int(3)),
          ("max", 1 + int(3)), ("clamp", 3)
        ])
        return .call(name, (0..<count).map { _ in row(.numeric, depth: depth - 1) })
      default:
        return choose(.numeric, depth: depth)
      }
    case .bool:
      if leaf {
        switch int(4) {
        case 0: return .literal(pick(["true", "false"]))
        case 1: return .literal("null")
        default: return .name("f", backticked: int(3) == 0)
        }
      }
      switch int(7) {
      case 0, 1:
        let operands: Kind = pick([.numeric, .numeric, .string, .bool])
        return .binary(
          pick(["<", "<=", "==", "!=", ">=", ">"]), row(operands, depth: depth - 1), row(operands, depth: depth - 1))
      case 2, 3:
        return .binary(pick(["and", "or"]), row(.bool, depth: depth - 1), row(.bool, depth: depth - 1))
      case 4:
        return .not(row(.bool, depth: depth - 1))
      case 5:
        return .call("isNull", [row(pick([.numeric, .string, .bool]), depth: depth - 1)])
      default:
        return choose(.bool, depth: depth)
      }
    case .string:
      if leaf || int(2) == 0 {
        switch int(4) {
        case 0:
          return .literal(pick(["\"\"", "\"a\"", "\"B\"", "\"é\"", "\"e\u{301}\"", "\"q\\\"uote\"", "\"back\\\\\""]))
        case 1: return .literal("null")
        default: return .name("s", backticked: int(3) == 0)
        }
      }
      return choose(.string, depth: depth)
    }
  }

  private mutating func choose(_ kind: Kind, depth: Int) -> GeneratedFormula {
    .call("if", [row(.bool, depth: depth - 1), row(kind, depth: depth - 1), row(kind, depth: depth - 1)])
  }
}
