/// A parsed row formula: the language of `filter.where` and `derive.columns` (Reference.md,
/// "Formulas").
///
/// ```swift
/// let adult = try RowFormula(parsing: "age >= 18 and not isNull(`body mass`)")
/// adult.columns   // ["age", "body mass"]
/// ```
///
/// The language is the calculator language of ``Formula`` plus comparisons `< <= == != >= >`,
/// `and`, `or`, `not`, string literals in double quotes (escapes `\"` and `\\`), `true`,
/// `false`, `null`, `isNull(x)`, `if(condition, a, b)`, the string, null and set functions of
/// ``FormulaBuiltin/table`` (`flow help formulas`), `x in (a, b, …)`, and column names in
/// backticks. Its
/// variables are the row's columns. Precedence from low to high: `or`, `and`, `not`,
/// comparisons (which do not chain: `a < b < c` is an error), `+ -`, `* / %`, unary minus,
/// `^` (right-associative). `pi`, `e`, `true`, `false`, `null`, `and`, `or`, `not` are words
/// of the language: a column with such a name is written in backticks.
///
/// Types: `integer`, `number`, `bool`, `string` and `null`. A literal written with digits only
/// (`12`, up to 2^63 - 1) is an integer; `+ - *` and unary minus of integers give integers (an overflow fails the
/// node); `/`, `%`, `^` and the functions give numbers. Integers and numbers mix freely
/// (comparisons of an integer with a number compare as numbers). Strings compare by Unicode
/// scalar values (no locale); `false < true`. Comparing values of different types (a string
/// with a number, a bool with a string…) is a type error, found when the formula is compiled
/// against the table's columns (or at load when both sides are literals).
///
/// Nulls follow SQL: arithmetic, functions and comparisons with a null operand give null;
/// `and`/`or` are three-valued; `not null` is null; `isNull(x)` is never null; `if(null, a, b)`
/// gives `b`. A division or remainder by zero gives null (as in SQLite and DuckDB), so the
/// column-at-a-time evaluation never depends on which rows an `if` selects.
///
/// Parsing (the shared ``FormulaParser``, in the ``FormulaContext/row`` context) is syntax only
/// (errors carry the 1-based column) and gives a ``FormulaSyntax``; ``compile(for:)`` resolves
/// the column names and checks types against a table's schema (``RowFormulaChecker``, giving a
/// ``TypedFormula``), then lowers the typed tree to a ``RowProgram``, which evaluates column at
/// a time. The SQL translator consumes the same typed tree (``typed(columnTypes:)``).
package struct RowFormula: Sendable, Hashable {
  /// The formula text.
  package let source: String
  /// The referenced column names, in order of first appearance.
  package let columns: [String]
  /// The syntax tree.
  let syntax: FormulaSyntax
  /// The result type as far as it is known before any table arrives (`unknown` when it
  /// depends on column types).
  private(set) var typeWithoutTable = RowType.unknown

  /// Parses `source`, then checks the types it can without a table (literals only).
  ///
  /// - Throws: a ``FormulaError`` with the 1-based column of the problem.
  package init(parsing source: String) throws(FormulaError) {
    var parser = FormulaParser(source, context: .row)
    self.syntax = try parser.parse()
    self.source = source
    self.columns = syntax.names
    self.typeWithoutTable = try RowFormulaChecker.check(self, schema: nil).resultType
  }

  /// Resolves the column names against `schema` and checks the types.
  ///
  /// - Throws: a ``FormulaError``: `no column 'x' in the table (columns: …)`, or a type error
  ///   with the column of the operator.
  func compile(for schema: RowSchema) throws(FormulaError) -> RowProgram {
    RowProgram(compiling: try RowFormulaChecker.check(self, schema: schema))
  }

  /// `compile(for:)` with the schema's positions by name already built (see
  /// `RowFormulaChecker.check(_:schema:index:)`).
  func compile(for schema: RowSchema, index: [String: Int]) throws(FormulaError) -> RowProgram {
    RowProgram(compiling: try RowFormulaChecker.check(self, schema: schema, index: index))
  }

  /// The formula checked against columns of these `types`, which are exactly the formula's
  /// ``columns`` in order (what a back end outside `FlowNodes` resolves itself).
  ///
  /// - Throws: a ``FormulaError``: a type error with the column of the operator.
  /// - Complexity: O(nodes of the formula).
  package func typed(columnTypes types: [RowType]) throws(FormulaError) -> TypedFormula {
    precondition(types.count == columns.count, "Internal inconsistency: one type per column of the formula")
    var index: [String: Int] = [:]
    for (position, name) in columns.enumerated() { index[name] = position }
    return try RowFormulaChecker.check(self, schema: RowSchema(names: columns, types: types), index: index)
  }

  /// The 1-based character column of a UTF-8 offset of the source.
  func column(atOffset offset: Int) -> Int {
    FormulaLexer(source, context: .row).column(atOffset: offset)
  }

  package static func == (lhs: RowFormula, rhs: RowFormula) -> Bool { lhs.source == rhs.source }

  package func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// One step of a row program before its columns are resolved (see ``RowInstruction``): a node of
/// the syntax tree lowered to the row back end's operations, in postfix order.
enum RowFormulaStep: Sendable, Hashable {
  case integer(Int64)
  case number(Double)
  case string(String)
  case bool(Bool)
  case null
  /// A column by name (resolved by ``RowFormulaChecker``).
  case column(String)
  case negate
  case not
  case arithmetic(RowArithmetic)
  case comparison(RowComparison)
  case and, or
  /// A numeric function of ``FormulaFunction`` with this many arguments.
  case call(FormulaFunction, arguments: Int)
  case isNull
  /// `if(condition, a, b)`.
  case choose
  /// A date function; `sources` names the column each argument reads directly (nil for another
  /// expression), for the message of a text that is not a date.
  case date(DateFunction, sources: [String?])
  /// A string function of ``FormulaTextFunction`` with this many arguments.
  case text(FormulaTextFunction, arguments: Int)
  /// `coalesce(a, b, …)` with this many arguments.
  case coalesce(arguments: Int)
  /// `x in (a, b, …)`: `x` and the items, this many values in all.
  case member(arguments: Int)

  /// Whether the step is a non-null literal.
  var isLiteral: Bool {
    switch self {
    case .integer, .number, .string, .bool: true
    default: false
    }
  }

  /// Whether the step is an integer or number literal.
  var isNumericLiteral: Bool {
    switch self {
    case .integer, .number: true
    default: false
    }
  }
}

extension RowFormula {
  /// The names of every function of row formulas (what a translation must cover).
  package static var functionNames: [String] {
    FormulaBuiltin.table.filter { $0.contexts.contains(.row) }.map(\.name)
  }
}
