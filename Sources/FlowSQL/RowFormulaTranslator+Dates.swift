import FlowNodes

/// The date functions of row formulas, per dialect: ISO-8601 texts, parts as written (the
/// date part is read as a `DATE`, so a text that is not a date fails the query as it fails the
/// node); `days` compares calendar dates in UTC (the script sets the session time zone to UTC).
extension RowFormulaTranslator {
  mutating func dateCall(_ function: DateFunction, _ arguments: [SQLExpression], type: SQLType) throws(SQLFormulaError)
    -> SQLExpression
  {
    func x(_ index: Int) -> Piece { .expression(arguments[index]) }
    let substr = dialect == .trino ? "substr(" : "substring("
    let datePart: [Piece] = ["CAST(", .text(substr), x(0), ", 1, 10) AS DATE)"]
    func time(_ from: Int) -> [Piece] {
      // A null text gives null (its length is null: no branch is taken).
      let tail = ", " + String(from) + ", 2) WHEN length("
      return [
        "CAST(CASE WHEN length(", x(0), ") > 10 THEN ", .text(substr), x(0), .text(tail), x(0),
        ") <= 10 THEN '0' END AS BIGINT)"
      ]
    }
    switch function {
    case .year, .month, .day:
      let name = function.name
      if dialect == .postgres {
        return try build(type, [.text("CAST(extract(\(name) FROM ")] + datePart + [") AS BIGINT)"])
      }
      return try build(type, [.text("CAST(\(name)(")] + datePart + [") AS BIGINT)"])
    case .hour: return try build(type, time(12))
    case .minute: return try build(type, time(15))
    case .second: return try build(type, time(18))
    case .weekday:
      switch dialect {
      case .duckdb: return try build(type, ["CAST(isodow("] + datePart + [") AS BIGINT)"])
      case .postgres: return try build(type, ["CAST(extract(isodow FROM "] + datePart + [") AS BIGINT)"])
      case .spark: return try build(type, ["CAST(weekday("] + datePart + [") + 1 AS BIGINT)"])
      case .trino: return try build(type, ["CAST(day_of_week("] + datePart + [") AS BIGINT)"])
      }
    case .date:
      let parts: [Piece] = ["CAST(", x(0), " AS INTEGER), CAST(", x(1), " AS INTEGER), CAST(", x(2), " AS INTEGER)"]
      switch dialect {
      case .duckdb: return try build(type, ["strftime(make_date("] + parts + ["), '%Y-%m-%d')"])
      case .postgres: return try build(type, ["to_char(make_date("] + parts + ["), 'YYYY-MM-DD')"])
      case .spark: return try build(type, ["date_format(make_date("] + parts + ["), 'yyyy-MM-dd')"])
      case .trino: return try build(type, ["CAST(CAST(format('%04d-%02d-%02d', "] + parts + [") AS DATE) AS VARCHAR)"])
      }
    case .days:
      func utcDate(_ index: Int) -> [Piece] {
        switch dialect {
        case .duckdb, .postgres: ["CAST(CAST(", x(index), " AS TIMESTAMPTZ) AT TIME ZONE 'UTC' AS DATE)"]
        case .spark: ["to_date(CAST(", x(index), " AS TIMESTAMP))"]
        case .trino: ["CAST(from_iso8601_timestamp(", x(index), ") AT TIME ZONE 'UTC' AS DATE)"]
        }
      }
      switch dialect {
      case .duckdb, .postgres: return try build(type, ["CAST(("] + utcDate(1) + [" - "] + utcDate(0) + [") AS BIGINT)"])
      case .spark: return try build(type, ["CAST(datediff("] + utcDate(1) + [", "] + utcDate(0) + [") AS BIGINT)"])
      case .trino: return try build(type, ["date_diff('day', "] + utcDate(0) + [", "] + utcDate(1) + [")"])
      }
    case .weekdayName, .monthName, .inTimeZone:
      return try zonedCall(function, arguments, type: type)
    case .addDays:
      let rest: [Piece] = [.text(substr), x(0), ", 11)"]
      switch dialect {
      case .duckdb:
        return try build(
          type, ["(strftime("] + datePart + [" + CAST(", x(1), " AS INTEGER), '%Y-%m-%d') || "] + rest + [")"])
      case .postgres:
        return try build(
          type, ["(to_char("] + datePart + [" + CAST(", x(1), " AS INTEGER), 'YYYY-MM-DD') || "] + rest + [")"])
      case .spark:
        return try build(
          type, ["(date_format(date_add("] + datePart + [", CAST(", x(1), " AS INT)), 'yyyy-MM-dd') || "] + rest + [")"]
        )
      case .trino:
        return try build(type, ["(CAST(date_add('day', ", x(1), ", "] + datePart + [") AS VARCHAR) || "] + rest + [")"])
      }
    }
  }
}
