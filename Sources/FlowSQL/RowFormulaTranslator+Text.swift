import FlowNodes

/// The string functions of row formulas, per dialect. Positions and lengths count Unicode
/// scalars, 1-based, as SQL's `SUBSTRING` does.
extension RowFormulaTranslator {
  /// The characters `trim` removes: ASCII whitespace.
  private var whitespace: String {
    switch dialect {
    case .spark: "concat(' ', char(9), char(10), char(11), char(12), char(13))"
    default: "(' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13))"
    }
  }

  /// A call of a string function, of type `type` (the checked node's).
  mutating func textCall(
    _ function: FormulaTextFunction, _ arguments: [SQLExpression], type: SQLType
  ) throws(SQLFormulaError) -> SQLExpression {
    if let sql = FormulaBuiltin.sql(for: .text(function)) { return try template(sql, arguments, type: type) }
    let a = arguments[0]
    func x(_ index: Int) -> Piece { .expression(arguments[index]) }
    switch function {
    case .trim:
      switch dialect {
      case .spark: return try build(type, ["trim(BOTH ", .text(whitespace), " FROM ", x(0), ")"])
      case .postgres: return try build(type, ["btrim(", x(0), ", ", .text(whitespace), ")"])
      case .duckdb, .trino: return try build(type, ["trim(", x(0), ", ", .text(whitespace), ")"])
      }
    case .substr:
      return try substring(arguments, type: type)
    case .concat:
      var pieces: [Piece] = ["("]
      for (index, argument) in arguments.enumerated() {
        if index > 0 { pieces.append(" || ") }
        pieces.append(.expression(try text(argument, function: function)))
      }
      return try build(type, pieces + [")"])
    case .string:
      return try text(a, function: function)
    case .number:
      return try build(type, ["CAST(trim(", x(0), ") AS ", .text(dialect.typeName(.number)), ")"])
    case .like:
      // `\` escapes the next character, as flow's patterns (a pattern ending in `\` is an
      // engine's error where flow matches a backslash).
      return try build(type, ["(", x(0), " LIKE ", x(1), " ESCAPE ", .text(dialect.literal("\\")), ")"])
    case .format:
      // The specs round halves away from zero on the double's exact binary value; no engine's
      // formatting does that for every value.
      throw missing(function.name)
    case .len, .lower, .upper, .contains, .startsWith, .endsWith, .replace:
      // Written by their table entries' templates (above); here only if one lost its template.
      throw missing(function.name)
    }
  }

  /// The text `flow run` prints for `x`: integers in decimal, whole numbers without `.0`,
  /// other numbers in their shortest round-trip digits, `true`/`false`.
  mutating func text(_ x: SQLExpression, function: FormulaTextFunction) throws(SQLFormulaError) -> SQLExpression {
    let stringType = dialect.typeName(.string)
    switch x.type {
    case .string: return x
    case .null: return try build(.null, ["CAST(NULL AS ", .text(stringType), ")"])
    case .integer, .bool: return try build(.string, ["CAST(", .expression(x), " AS ", .text(stringType), ")"])
    case .number:
      // Trino writes doubles in scientific notation (`2.5E0`): no exact translation.
      if dialect == .trino { throw missing(function.name, " of a number") }
      // Whole: `x = trunc(x)`; Spark's `trunc` is a date function, so `x % 1 = 0` there.
      let whole: [Piece] =
        dialect == .spark ? [.expression(x), " % 1 = 0"] : [.expression(x), " = trunc(", .expression(x), ")"]
      return try build(
        .string,
        ["CASE WHEN abs(", .expression(x), ") < 1e15 AND "] + whole + [
          " THEN CAST(CAST(", .expression(x),
          " AS BIGINT) AS ", .text(stringType), ") ELSE CAST(", .expression(x), " AS ", .text(stringType), ") END"
        ])
    }
  }

  /// `substr(s, start[, count])` with SQL's rules for a start before 1 (engines other than
  /// Postgres count a negative start from the end, so the range is computed explicitly).
  private mutating func substring(_ arguments: [SQLExpression], type: SQLType) throws(SQLFormulaError) -> SQLExpression
  {
    let start = try position(arguments[1])
    let function = dialect == .trino ? "substr(" : "substring("
    // Postgres's substring takes INTEGER positions.
    let (open, close): (Piece, Piece) = dialect == .postgres ? ("CAST(", " AS INTEGER)") : ("", "")
    guard arguments.count > 2 else {
      return try build(
        type,
        [.text(function), .expression(arguments[0]), ", ", open, "greatest(", .expression(start), ", 1)", close, ")"])
    }
    let count = try position(arguments[2])
    return try build(
      type,
      [
        .text(function), .expression(arguments[0]), ", ", open, "greatest(", .expression(start), ", 1)", close,
        ", ", open, "greatest(", .expression(start), " + ", .expression(count), " - greatest(", .expression(start),
        ", 1), 0)", close, ")"
      ])
  }

  /// A position or count as a `BIGINT` (a number truncated toward zero).
  private mutating func position(_ x: SQLExpression) throws(SQLFormulaError) -> SQLExpression {
    if x.type == .integer { return x }
    let trunc = dialect == .trino ? "truncate(" : (dialect == .spark ? "CAST(" : "trunc(")
    let close = dialect == .spark ? " AS BIGINT)" : ")"
    return try build(.integer, ["CAST(", .text(trunc), .expression(x), .text(close), " AS BIGINT)"])
  }
}
