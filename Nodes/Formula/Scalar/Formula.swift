/// A compiled arithmetic formula, the language of the `expression` node kind.
///
/// ```swift
/// let area = try Formula(parsing: "pi * r^2")
/// area.variables              // ["r"]
/// try area.evaluate([2])      // 12.566…
/// ```
///
/// The language: binary `+ - * / % ^`, parentheses, unary `-` and `+`, decimal numbers
/// (`12`, `3.5`, `.5`, `1e3`, `2.5E-3`), the constants `pi` and `e`, variables
/// `[A-Za-z_][A-Za-z0-9_]*` and calls of the built-in functions (see ``FormulaFunction``).
/// Precedence from low to high: `+ -` (left-associative), `* / %` (left-associative),
/// unary `-`/`+`, `^` (right-associative). `%` is the truncated remainder (sign of the dividend).
///
/// Parsing (the shared ``FormulaParser``, in the ``FormulaContext/scalar`` context) gives a
/// ``FormulaSyntax``, which ``ScalarFormulaChecker`` lowers to a postfix program without
/// recursion; ``evaluate(_:)`` runs that program in a loop over a value stack whose size is
/// computed at parse time.
package struct Formula: Sendable, Hashable {
  /// The formula text as given to ``init(parsing:)``.
  package let source: String
  /// Variable names in order of first appearance (excluding the constants `pi` and `e`, and
  /// names used as functions).
  package let variables: [String]

  /// The postfix program.
  let program: [FormulaInstruction]
  /// The largest number of values the program ever holds on its stack.
  let maxStackDepth: Int

  /// Parses and compiles `source`.
  ///
  /// - Throws: a ``FormulaError`` with the 1-based column of the problem.
  package init(parsing source: String) throws(FormulaError) {
    var parser = FormulaParser(source, context: .scalar)
    let compiled = try ScalarFormulaChecker.compile(try parser.parse())
    self.source = source
    self.variables = compiled.variables
    self.program = compiled.program
    self.maxStackDepth = compiled.maxStackDepth
  }

  /// Evaluates the formula with one value per entry of ``variables``, in that order.
  ///
  /// Non-finite results (`sqrt(-1)`, `exp(1000)`) are returned as ordinary values.
  ///
  /// - Throws: a ``FormulaError`` without column when the number of values does not match
  ///   ``variables`` or when a `/` or `%` has a zero divisor ("division by zero").
  package func evaluate(_ values: [Double]) throws(FormulaError) -> Double {
    guard values.count == variables.count else {
      let expected = variables.count
      throw FormulaError(
        message: "expected \(expected) value\(expected == 1 ? "" : "s"), got \(values.count)"
      )
    }
    if program.count == 1 {
      switch program[0] {
      case .constant(let value): return value
      case .variable(let index): return values[index]
      default: break
      }
    }
    let result = Self.execute(program, values: values, maxStackDepth: maxStackDepth)
    guard let result else { throw .divisionByZero }
    return result
  }

  package static func == (lhs: Formula, rhs: Formula) -> Bool {
    lhs.source == rhs.source
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(source)
  }
}

/// One step of a compiled formula's postfix program.
enum FormulaInstruction: Sendable, Equatable {
  /// Pushes a number.
  case constant(Double)
  /// Pushes the value of the variable at this index of ``Formula/variables``.
  case variable(Int)
  case add, subtract, multiply, divide, remainder, power, negate
  /// Replaces the top value by a one-argument function of it.
  case unary(FormulaFunction)
  /// Replaces the top two values by a two-argument function of them.
  case binary(FormulaFunction)
  /// Replaces the top three values (`x`, `lo`, `hi`) by `clamp(x, lo, hi)`.
  case clamp
  /// Replaces the top `count` values by their minimum.
  case minimum(count: Int)
  /// Replaces the top `count` values by their maximum.
  case maximum(count: Int)

  /// How the instruction changes the stack depth.
  var stackEffect: Int {
    switch self {
    case .constant, .variable: 1
    case .add, .subtract, .multiply, .divide, .remainder, .power, .binary: -1
    case .negate, .unary: 0
    case .clamp: -2
    case .minimum(let count), .maximum(let count): 1 - count
    }
  }
}
