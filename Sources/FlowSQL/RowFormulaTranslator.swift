import FlowNodes
import FlowRuntime

/// A translated expression: a node of the translator's ``SQLRope`` and its type.
struct SQLExpression {
  var node: Int
  var type: SQLType
  /// The value, when the expression is an integer literal (written as a double where one is needed).
  var integerLiteral: Int64? = nil
}

/// Translates a row formula (parsed by the one front end, `RowFormula`) into a SQL expression
/// of a dialect, typed as flow types it: one pass over the postfix terms with a stack, so it is
/// linear in the formula (see ``SQLRope`` for the output).
///
/// The rules (Reference.md, "Formulas"): SQL null logic is SQL's own; `+ - *` of integers stay `BIGINT` (an
/// overflow is the engine's error, as it is flow's); `/` and `%` give doubles and null for a
/// zero divisor (`NULLIF`); strings compare by code point (`COLLATE "C"` on Postgres); every
/// function has a translation per dialect (`RowFormulaTranslator+Functions.swift`) or the
/// export fails naming function and dialect.
struct RowFormulaTranslator {
  /// One piece of a template: text, or an expression's SQL.
  enum Piece: ExpressibleByStringLiteral {
    case text(String)
    case expression(SQLExpression)

    init(stringLiteral value: String) { self = .text(value) }
  }

  let dialect: SQLDialect
  var rope = SQLRope()

  init(dialect: SQLDialect) {
    self.dialect = dialect
  }

  /// An expression made of `pieces`.
  mutating func build(_ type: SQLType, _ pieces: [Piece]) throws(SQLFormulaError) -> SQLExpression {
    let node = rope.make(
      pieces.map { piece in
        switch piece {
        case .text(let text): .text(text)
        case .expression(let expression): .node(expression.node)
        }
      })
    guard rope.length[node] <= SQLRope.limit else {
      throw SQLFormulaError("the formula's SQL would exceed \(SQLRope.limit >> 20) MiB")
    }
    return SQLExpression(node: node, type: type)
  }

  /// A column reference (already resolved to its SQL).
  mutating func column(_ sql: String, _ type: SQLType) -> SQLExpression {
    SQLExpression(node: rope.text(sql), type: type)
  }

  /// Translates `formula` against `columns`: `resolve(name)` gives a column's SQL and type, or
  /// nil when the table has no such column. The formula is checked by the row formulas' one
  /// checker (``TypedFormula``): the translation matches on its operators and functions and
  /// takes each node's type from it.
  ///
  /// - Throws: `no column 'x' in the table`, the checker's type error (without its position),
  ///   or a function's missing translation.
  /// - Complexity: O(nodes of the formula + length of the SQL).
  mutating func translate(
    _ formula: RowFormula, resolve: (String) -> (sql: String, type: SQLType)?
  ) throws(SQLFormulaError) -> SQLExpression {
    var columns: [String] = [], types: [RowType] = []
    for name in formula.columns {
      guard let resolved = resolve(name) else { throw SQLFormulaError("no column '\(name)' in the table") }
      columns.append(resolved.sql)
      types.append(resolved.type.rowType)
    }
    let typed: TypedFormula
    do { typed = try formula.typed(columnTypes: types) } catch { throw SQLFormulaError(error.message) }
    var stack: [SQLExpression] = []
    for node in typed.nodes {
      let type = SQLType(node.type)
      switch node.operation {
      case .integer(let value):
        var literal = column(dialect.integerLiteral(value), .integer)
        literal.integerLiteral = value
        stack.append(literal)
      case .number(let value): stack.append(column(dialect.numberLiteral(value), .number))
      case .string(let text): stack.append(column(dialect.literal(text), .string))
      case .bool(let value): stack.append(column(value ? "TRUE" : "FALSE", .bool))
      case .null: stack.append(column("NULL", .null))
      case .column(_, let position):
        guard let position else { preconditionFailure("Internal inconsistency: a column checked without a schema") }
        stack.append(column(columns[position], type))
      case .negate:
        let operand = stack.removeLast()
        stack.append(try build(type, ["(- ", .expression(operand), ")"]))
      case .not:
        let operand = try boolean(stack.removeLast())
        stack.append(try build(type, ["(NOT ", .expression(operand), ")"]))
      case .and, .or:
        let right = try boolean(stack.removeLast()), left = try boolean(stack.removeLast())
        let word = node.operation == .and ? " AND " : " OR "
        stack.append(try build(type, ["(", .expression(left), .text(word), .expression(right), ")"]))
      case .arithmetic(let op):
        let right = stack.removeLast(), left = stack.removeLast()
        stack.append(try arithmetic(op, left, right, type: type))
      case .comparison(let op):
        let right = stack.removeLast(), left = stack.removeLast()
        stack.append(try comparison(op, left, right, type: type))
      case .call(let function, let count):
        let arguments = Array(stack.suffix(count))
        stack.removeLast(count)
        stack.append(try call(function, arguments, type: type))
      }
    }
    guard let result = stack.last, stack.count == 1 else { throw SQLFormulaError("the formula is empty") }
    return result
  }

  /// `x` where a bool is needed: a `null` literal typed `BOOLEAN` (Spark has no untyped null
  /// there).
  mutating func boolean(_ x: SQLExpression) throws(SQLFormulaError) -> SQLExpression {
    x.type == .null ? try build(.null, ["CAST(", .expression(x), " AS BOOLEAN)"]) : x
  }

  /// `x` as a double (integers cast; doubles and nulls as they are).
  mutating func double(_ x: SQLExpression) throws(SQLFormulaError) -> SQLExpression {
    switch x.type {
    case .number: return x
    case .integer where x.integerLiteral.map { $0.magnitude <= 1 << 53 } == true:
      return column(dialect.numberLiteral(Double(x.integerLiteral ?? 0)), .number)
    case .null: return try build(.null, ["CAST(NULL AS ", .text(dialect.typeName(.number)), ")"])
    default: return try build(.number, ["CAST(", .expression(x), " AS ", .text(dialect.typeName(.number)), ")"])
    }
  }

  /// `left op right` of type `type` (the checked node's).
  mutating func arithmetic(
    _ op: RowArithmetic, _ left: SQLExpression, _ right: SQLExpression, type: SQLType
  ) throws(SQLFormulaError) -> SQLExpression {
    switch op {
    case .add, .subtract, .multiply:
      if type == .integer {
        return try build(.integer, ["(", .expression(left), .text(" \(op.symbol) "), .expression(right), ")"])
      }
      let a = try double(left), b = try double(right)
      return try build(type, ["(", .expression(a), .text(" \(op.symbol) "), .expression(b), ")"])
    case .divide:
      let a = try double(left), b = try double(right)
      return try build(type, ["(", .expression(a), " / NULLIF(", .expression(b), ", 0))"])
    case .remainder:
      let a = try double(left), b = try double(right)
      switch dialect {
      case .trino: return try build(type, ["mod(", .expression(a), ", NULLIF(", .expression(b), ", 0))"])
      case .duckdb, .spark:
        // `%` of doubles truncates (the sign of the dividend), as flow's does; DuckDB's `fmod` floors.
        return try build(type, ["(", .expression(a), " % NULLIF(", .expression(b), ", 0))"])
      case .postgres:
        return try build(
          type,
          [
            "CAST(mod(CAST(", .expression(a), " AS NUMERIC), NULLIF(CAST(",
            .expression(b), " AS NUMERIC), 0)) AS DOUBLE PRECISION)"
          ])
      }
    case .power:
      let a = try double(left), b = try double(right)
      let function = dialect == .duckdb || dialect == .spark ? "pow(" : "power("
      return try build(type, [.text(function), .expression(a), ", ", .expression(b), ")"])
    }
  }

  /// `left op right` of type `type` (the checked node's): strings by code point on Postgres.
  mutating func comparison(
    _ op: RowComparison, _ left: SQLExpression, _ right: SQLExpression, type: SQLType
  ) throws(SQLFormulaError) -> SQLExpression {
    let symbol =
      switch op {
      case .equal: "="
      case .notEqual: "<>"
      default: op.symbol
      }
    let ordered = op != .equal && op != .notEqual
    if left.type == .string && right.type == .string && dialect == .postgres && ordered {
      return try build(
        type, ["(", .expression(left), " COLLATE \"C\" ", .text(symbol), " ", .expression(right), " COLLATE \"C\")"])
    }
    return try build(type, ["(", .expression(left), .text(" \(symbol) "), .expression(right), ")"])
  }
}

/// Why a formula has no translation: the message of an export error (the node and param are
/// added by the compiler).
struct SQLFormulaError: Error {
  var message: String

  init(_ message: String) {
    self.message = message
  }
}
