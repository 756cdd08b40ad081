/// A binary operator of the formula languages, with its precedence (higher binds tighter).
///
/// Precedence: `or` 1, `and` 2, (prefix `not` 3), comparisons 4, `+ -` 5, `* / %` 6, (prefix
/// `-` 7), `^` 8. Every operator is left-associative except `^`; comparisons do not chain (the
/// parser reports `a < b < c`). The calculator language (`expression`) has only the arithmetic
/// operators.
enum FormulaOperator: Sendable, Hashable {
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

  /// Only `^` groups from the right (`2^3^2` is `2^9`).
  var isRightAssociative: Bool { self == .arithmetic(.power) }

  /// The operator as written.
  var symbol: String {
    switch self {
    case .or: "or"
    case .and: "and"
    case .comparison(let comparison): comparison.symbol
    case .arithmetic(let arithmetic): arithmetic.symbol
    }
  }
}

/// A prefix operator: unary `-` (precedence 7, between `* / %` and `^`, so `-2^2` is -4) or
/// `not` (precedence 3, below the comparisons, so `not a < b` is `not (a < b)`). Unary `+` is a
/// no-op and never recorded.
enum FormulaPrefix: Sendable, Hashable {
  case negate, not

  var precedence: Int {
    switch self {
    case .negate: 7
    case .not: 3
    }
  }
}

// The names `RowArithmetic` and `RowComparison` predate the shared front end; the row back end
// (`RowVector`) and its tests use them.

/// The binary arithmetic operators.
package enum RowArithmetic: Sendable, Hashable {
  case add, subtract, multiply, divide, remainder, power

  package var symbol: String {
    switch self {
    case .add: "+"
    case .subtract: "-"
    case .multiply: "*"
    case .divide: "/"
    case .remainder: "%"
    case .power: "^"
    }
  }
}

/// The comparison operators.
package enum RowComparison: Sendable, Hashable {
  case less, lessOrEqual, equal, notEqual, greaterOrEqual, greater

  package var symbol: String {
    switch self {
    case .less: "<"
    case .lessOrEqual: "<="
    case .equal: "=="
    case .notEqual: "!="
    case .greaterOrEqual: ">="
    case .greater: ">"
    }
  }

  /// Whether a three-way comparison result (-1, 0, 1) satisfies the operator.
  @inline(__always)
  func holds(_ order: Int) -> Bool {
    switch self {
    case .less: order < 0
    case .lessOrEqual: order <= 0
    case .equal: order == 0
    case .notEqual: order != 0
    case .greaterOrEqual: order >= 0
    case .greater: order > 0
    }
  }
}
