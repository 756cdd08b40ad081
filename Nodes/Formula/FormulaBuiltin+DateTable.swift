/// The date and time functions of row formulas (Reference.md, "Formulas"), in the order `flow help formulas`
/// lists them: ISO-8601 texts in, parts as written.
extension FormulaBuiltin {
  static let dateTable: [FormulaBuiltin] = [
    DateFunction.year.builtin(
      "the year of an ISO-8601 date or date-time text, as written",
      "year(\"2013-01-01T05:17:00\") → 2013"),
    DateFunction.month.builtin("the month, 1–12, as written", "month(\"2013-07-04\") → 7"),
    DateFunction.day.builtin(
      "the day of the month, as written (no conversion to UTC)",
      "day(\"2013-01-01T23:30:00-05:00\") → 1"),
    DateFunction.hour.builtin("the hour, 0–23, as written (0 for a date)", "hour(\"2013-01-01T05:17:00Z\") → 5"),
    DateFunction.minute.builtin("the minute, as written (0 for a date)", "minute(\"2013-01-01T05:17:00\") → 17"),
    DateFunction.second.builtin(
      "the whole seconds, as written (0 for a date)",
      "second(\"2013-01-01T05:17:09.5\") → 9"),
    DateFunction.weekday.builtin("the ISO weekday of the date: 1 Monday … 7 Sunday", "weekday(\"2024-02-29\") → 4"),
    DateFunction.weekdayName.builtin(
      "the English name of the ISO weekday of the date", "weekdayName(\"2024-02-29\") → \"Thursday\""),
    DateFunction.monthName.builtin("the English name of the month, as written", "monthName(\"2013-07-04\") → \"July\""),
    DateFunction.date.builtin(
      "the date text YYYY-MM-DD of a year, month and day", "date(2024, 2, 29) → \"2024-02-29\""),
    DateFunction.days.builtin(
      "whole days from a to b, by calendar date in UTC (no offset counts as UTC)",
      "days(\"2013-01-01\", \"2013-03-01\") → 59"),
    DateFunction.addDays.builtin(
      "the date moved by n days; time, fraction and offset kept as written",
      "addDays(\"2024-02-28T10:00:00Z\", 2) → \"2024-03-01T10:00:00Z\""),
    DateFunction.inTimeZone.builtin(
      "the instant's local time in an IANA zone (system database), with its offset; no offset counts as UTC",
      "inTimeZone(\"2013-01-01T05:17:00Z\", \"America/New_York\") → \"2013-01-01T00:17:00-05:00\"")
  ]
}
