extension RowFormulaParser {
  /// A binary operator of the row language.
  enum Binary: Sendable, Equatable {
    case or, and
    case comparison(RowComparison)
    case arithmetic(RowArithmetic)

    var precedence: Int {
      switch self {
      case .or: 1
      case .and: 2
      case .comparison: 4
      case .arithmetic(.add), .arithmetic(.subtract): 5
      case .arithmetic(.power): 8
      case .arithmetic: 6
      }
    }

    var step: RowFormulaStep {
      switch self {
      case .or: .or
      case .and: .and
      case .comparison(let comparison): .comparison(comparison)
      case .arithmetic(let arithmetic): .arithmetic(arithmetic)
      }
    }
  }

  /// What a call names.
  enum Callee: Sendable, Equatable {
    case function(FormulaFunction)
    case isNull
    case choose

    var name: String {
      switch self {
      case .function(let function): function.name
      case .isNull: "isNull"
      case .choose: "if"
      }
    }

    var arity: FormulaFunction.Arity {
      switch self {
      case .function(let function): function.arity
      case .isNull: .exactly(1)
      case .choose: .exactly(3)
      }
    }
  }
}
