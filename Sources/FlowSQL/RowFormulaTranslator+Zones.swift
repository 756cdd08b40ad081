import FlowNodes

/// The date functions that give text, per dialect: `weekdayName(d)` and `monthName(d)` (English
/// names of the date part as written) and `inTimeZone(t, zone)` (the instant's local time in an
/// IANA zone, `YYYY-MM-DDTHH:MM:SS`, the fraction as written, then the offset `±hh:mm`). The
/// script sets the session time zone to UTC, so a text without an offset counts as UTC.
extension RowFormulaTranslator {
  mutating func zonedCall(_ function: DateFunction, _ arguments: [SQLExpression], type: SQLType) throws(SQLFormulaError)
    -> SQLExpression
  {
    func x(_ index: Int) -> Piece { .expression(arguments[index]) }
    let substr = dialect == .trino ? "substr(" : "substring("
    let datePart: [Piece] = ["CAST(", .text(substr), x(0), ", 1, 10) AS DATE)"]
    switch function {
    case .weekdayName, .monthName:
      let weekday = function == .weekdayName
      switch dialect {
      case .duckdb: return try build(type, [.text(weekday ? "dayname(" : "monthname(")] + datePart + [")"])
      case .postgres: return try build(type, ["to_char("] + datePart + [.text(weekday ? ", 'FMDay')" : ", 'FMMonth')")])
      case .spark: return try build(type, ["date_format("] + datePart + [.text(weekday ? ", 'EEEE')" : ", 'MMMM')")])
      case .trino: return try build(type, ["date_format("] + datePart + [.text(weekday ? ", '%W')" : ", '%M')")])
      }
    case .inTimeZone:
      return try inTimeZone(x(0), x(1), type: type)
    default:
      return try dateCall(function, arguments, type: type)
    }
  }

  /// `inTimeZone(t, zone)`: the local wall time and the offset (local − UTC, in seconds) of each
  /// dialect, written as flow writes them.
  private mutating func inTimeZone(_ t: Piece, _ zone: Piece, type: SQLType) throws(SQLFormulaError) -> SQLExpression {
    let fraction: [Piece]
    let local: [Piece], offset: [Piece]
    switch dialect {
    case .duckdb:
      let instant: [Piece] = ["CAST(", t, " AS TIMESTAMPTZ)"]
      local = ["strftime(("] + instant + [" AT TIME ZONE ", zone, "), '%Y-%m-%dT%H:%M:%S')"]
      offset =
        ["CAST(epoch(("] + instant + [" AT TIME ZONE ", zone, ")) - epoch(("] + instant + [
          " AT TIME ZONE 'UTC')) AS BIGINT)"
        ]
      fraction = ["regexp_extract(", t, ", '^.{19}(\\.[0-9]+)', 1)"]
    case .postgres:
      let instant: [Piece] = ["CAST(", t, " AS TIMESTAMPTZ)"]
      local = ["to_char(("] + instant + [" AT TIME ZONE ", zone, "), 'YYYY-MM-DD\"T\"HH24:MI:SS')"]
      offset =
        ["CAST(extract(epoch FROM (("] + instant + [" AT TIME ZONE ", zone, ") - ("] + instant
        + [" AT TIME ZONE 'UTC'))) AS BIGINT)"]
      fraction = ["coalesce(substring(", t, " from '^.{19}(\\.[0-9]+)'), '')"]
    case .spark:
      let instant: [Piece] = ["CAST(", t, " AS TIMESTAMP)"]
      let shifted: [Piece] = ["from_utc_timestamp("] + instant + [", ", zone, ")"]
      local = ["date_format("] + shifted + [", \"yyyy-MM-dd'T'HH:mm:ss\")"]
      offset = ["CAST(unix_timestamp("] + shifted + [") - unix_timestamp("] + instant + [") AS BIGINT)"]
      fraction = ["regexp_extract(", t, ", '^.{19}(\\\\.[0-9]+)', 1)"]
    case .trino:
      let zoned: [Piece] = ["at_timezone(from_iso8601_timestamp(", t, "), ", zone, ")"]
      local = ["format_datetime("] + zoned + [", 'yyyy-MM-dd''T''HH:mm:ss')"]
      offset =
        ["CAST(to_unixtime(CAST("] + zoned + [
          " AS TIMESTAMP)) - to_unixtime(CAST(at_timezone(from_iso8601_timestamp(", t,
          "), 'UTC') AS TIMESTAMP)) AS BIGINT)"
        ]
      fraction = ["coalesce(regexp_extract(", t, ", '^.{19}(\\.[0-9]+)', 1), '')"]
    }
    let seconds = try build(.integer, offset)
    let o = Piece.expression(seconds)
    let text = dialect.typeName(.string)
    func two(_ value: [Piece]) -> [Piece] { ["lpad(CAST("] + value + [.text(" AS \(text)), 2, '0')")] }
    let hours = two(["CAST(floor(abs(", o, ") / 3600) AS BIGINT)"])
    let minutes = two(["CAST(floor(abs(", o, ") % 3600 / 60) AS BIGINT)"])
    return try build(
      type,
      ["("] + local + [" || "] + fraction + [" || CASE WHEN ", o, " < 0 THEN '-' ELSE '+' END || "] + hours
        + [" || ':' || "] + minutes + [")"])
  }
}
