import FlowNodes

/// The functions of row formulas, per dialect (Reference.md, "Formulas", `flow help formulas`). A null argument
/// gives null unless said otherwise; engines whose built-in skips nulls (`least`, `greatest`)
/// are wrapped so that it does not.
extension RowFormulaTranslator {
  /// A call of `function` on `arguments`, of type `type` (the checked node's).
  ///
  /// - Throws: `function 'f' has no translation for <dialect>` when the dialect lacks it.
  mutating func call(
    _ function: FormulaBuiltin.Operation, _ arguments: [SQLExpression], type: SQLType
  ) throws(SQLFormulaError) -> SQLExpression {
    switch function {
    case .numeric(let function): return try numeric(function, arguments, type: type)
    case .isNull:
      return try build(type, ["(", .expression(arguments[0]), " IS NULL)"])
    case .choose:
      let a = try widened(arguments[1], to: type), b = try widened(arguments[2], to: type)
      let condition = try boolean(arguments[0])
      return try build(
        type, ["CASE WHEN ", .expression(condition), " THEN ", .expression(a), " ELSE ", .expression(b), " END"])
    case .coalesce:
      var pieces: [Piece] = ["coalesce("]
      for (index, argument) in arguments.enumerated() {
        if index > 0 { pieces.append(", ") }
        pieces.append(.expression(try widened(argument, to: type)))
      }
      pieces.append(")")
      return try build(type, pieces)
    case .member:
      var pieces: [Piece] = ["(", .expression(arguments[0]), " IN ("]
      for (index, argument) in arguments.dropFirst().enumerated() {
        if index > 0 { pieces.append(", ") }
        pieces.append(.expression(argument))
      }
      pieces.append("))")
      return try build(type, pieces)
    case .date(let function):
      return try dateCall(function, arguments, type: type)
    case .text(let function):
      return try textCall(function, arguments, type: type)
    }
  }

  /// A call of a numeric function.
  private mutating func numeric(
    _ function: FormulaFunction, _ arguments: [SQLExpression], type: SQLType
  ) throws(SQLFormulaError) -> SQLExpression {
    if let sql = FormulaBuiltin.sql(for: .numeric(function)) {
      return try template(sql, try arguments.map { (x) throws(SQLFormulaError) in try double(x) }, type: type)
    }
    switch function {
    case .min, .max:
      return try extreme(
        function == .min ? "least" : "greatest",
        try arguments.map { (x) throws(SQLFormulaError) in try double(x) }, type: type)
    case .clamp:
      let x = try double(arguments[0]), low = try double(arguments[1]), high = try double(arguments[2])
      let raised = try extreme("greatest", [x, low], type: type)
      return try extreme("least", [raised, high], type: type)
    case .round:
      return try round(try double(arguments[0]), arguments.count > 1 ? arguments[1] : nil, type: type)
    default:
      // A numeric function with neither a template in its table entry nor code here.
      throw missing(function.name)
    }
  }

  /// `x` as `type` (an integer widened to a double where the common type is a number).
  mutating func widened(_ x: SQLExpression, to type: SQLType) throws(SQLFormulaError) -> SQLExpression {
    type == .number && x.type != .number ? try double(x) : x
  }

  /// The error for a function a dialect lacks.
  func missing(_ name: String, _ detail: String = "") -> SQLFormulaError {
    SQLFormulaError("function '\(name)'\(detail) has no translation for \(dialect.rawValue)")
  }

  /// A call written by its table entry's template (`FormulaSQL`) for this dialect.
  mutating func template(_ sql: FormulaSQL, _ arguments: [SQLExpression], type: SQLType) throws(SQLFormulaError)
    -> SQLExpression
  {
    try build(
      type,
      sql.parts(for: dialect.rawValue).map { part -> Piece in
        switch part {
        case .text(let text): .text(text)
        case .argument(let index): .expression(arguments[index])
        }
      })
  }

  /// `least`/`greatest`, null when any argument is null (Trino's already are; the others skip
  /// nulls, so they are wrapped).
  private mutating func extreme(_ function: String, _ arguments: [SQLExpression], type: SQLType) throws(SQLFormulaError)
    -> SQLExpression
  {
    if arguments.count == 1 { return arguments[0] }
    var call: [Piece] = [.text(function + "(")]
    for (index, argument) in arguments.enumerated() {
      if index > 0 { call.append(", ") }
      call.append(.expression(argument))
    }
    call.append(")")
    if dialect == .trino { return try build(type, call) }
    var pieces: [Piece] = ["CASE WHEN "]
    for (index, argument) in arguments.enumerated() {
      if index > 0 { pieces.append(" OR ") }
      pieces += [.expression(argument), " IS NULL"]
    }
    return try build(type, pieces + [" THEN NULL ELSE "] + call + [" END"])
  }

  /// `round(x[, digits])`, halves away from zero.
  private mutating func round(_ x: SQLExpression, _ digits: SQLExpression?, type: SQLType) throws(SQLFormulaError)
    -> SQLExpression
  {
    var places: [Piece] = []
    if let digits {
      if dialect == .spark, digits.type != .integer {
        throw missing(FormulaFunction.round.name, " with a computed number of digits")
      }
      places =
        digits.type == .integer
        ? [", CAST(", .expression(digits), " AS INTEGER)"]
        : [", CAST(trunc(", .expression(digits), ") AS INTEGER)"]
    }
    switch dialect {
    case .postgres:
      return try build(type, ["CAST(round(CAST(", .expression(x), " AS NUMERIC)"] + places + [") AS DOUBLE PRECISION)"])
    case .duckdb where digits != nil:
      // Halves decided by the decimal digits (`round(2.675, 2)` is 2.68): the shortest text of
      // the double, as a decimal, rounded; beyond 1e15 the double's own rounding.
      return try build(
        type,
        [
          "CASE WHEN abs(", .expression(x), ") < 1e15 THEN CAST(round(CAST(CAST(", .expression(x),
          " AS VARCHAR) AS DECIMAL(38, 18))"
        ] + places + [") AS DOUBLE) ELSE round(", .expression(x)]
          + places + [") END"])
    case .duckdb, .trino, .spark:
      return try build(type, ["round(", .expression(x)] + places + [")"])
    }
  }
}
