extension FormulaParser {
  /// A binary operator with its precedence (higher binds tighter) and associativity.
  enum BinaryOperator: Sendable {
    case add, subtract, multiply, divide, remainder, power

    init?(_ kind: FormulaToken.Kind) {
      switch kind {
      case .plus: self = .add
      case .minus: self = .subtract
      case .star: self = .multiply
      case .slash: self = .divide
      case .percent: self = .remainder
      case .caret: self = .power
      default: return nil
      }
    }

    var precedence: Int {
      switch self {
      case .add, .subtract: 1
      case .multiply, .divide, .remainder: 2
      case .power: 4  // above unary minus (`prefixPrecedence`)
      }
    }

    var isRightAssociative: Bool { self == .power }

    var instruction: FormulaInstruction {
      switch self {
      case .add: .add
      case .subtract: .subtract
      case .multiply: .multiply
      case .divide: .divide
      case .remainder: .remainder
      case .power: .power
      }
    }
  }

  /// The precedence of unary minus: between `* / %` and `^`.
  static let prefixPrecedence = 3
}
