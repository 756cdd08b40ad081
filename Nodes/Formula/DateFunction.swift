/// The date and time functions of row formulas (Reference.md, "Formulas"): the parts of an ISO-8601 text
/// (`year(d)` … `weekday(d)`), `date(y, m, d)`, `days(a, b)` and `addDays(d, n)`.
///
/// A function's argument and result types are fixed (``arguments``, ``result``); a null
/// argument gives null. The texts are read by ``ISODate``; the row back end runs them column
/// at a time (`RowVector+Dates.swift`).
package enum DateFunction: String, Sendable, Hashable, CaseIterable {
  case year, month, day, hour, minute, second, weekday
  case date, days, addDays
  /// `weekdayName(d)`, `monthName(d)`: English names of the parts as written.
  case weekdayName, monthName
  /// `inTimeZone(t, "Area/City")`: the instant's local time in a zone of the system's database.
  case inTimeZone

  /// What an argument must be.
  enum Argument: Sendable, Hashable {
    /// An ISO-8601 date or date-time text (`string`).
    case text
    /// A whole number (`integer`, or a `number` without a fraction).
    case whole
    /// A time zone's IANA name (`string`), e.g. `"Europe/Paris"`.
    case zone
  }

  /// The (case-sensitive) name a formula calls it by: the case's raw value, the one place it
  /// is spelt.
  package var name: String { rawValue }

  /// The arguments, in order.
  var arguments: [Argument] {
    switch self {
    case .year, .month, .day, .hour, .minute, .second, .weekday, .weekdayName, .monthName: [.text]
    case .inTimeZone: [.text, .zone]
    case .date: [.whole, .whole, .whole]
    case .days: [.text, .text]
    case .addDays: [.text, .whole]
    }
  }

  /// The type of a non-null result: an `integer`, or a `string` for `date`, `addDays`, the
  /// names and `inTimeZone`.
  var result: RowType {
    switch self {
    case .date, .addDays, .weekdayName, .monthName, .inTimeZone: .string
    default: .integer
    }
  }

  /// The table entry of this function (row formulas only).
  func builtin(_ summary: String, _ example: String) -> FormulaBuiltin {
    FormulaBuiltin(
      name: name, arity: .exactly(arguments.count), contexts: [.row], typing: .dates,
      operation: .date(self), summary: summary, example: example)
  }
}

extension DateFunction.Argument {
  /// Whether a value of `type` may be passed (null and unknown always may).
  func accepts(_ type: RowType) -> Bool {
    switch self {
    case .text, .zone: type.fits { $0 == .string }
    case .whole: type.fits(\.isNumeric)
    }
  }

  /// The argument's kind in a type error: "a date text", "a whole number".
  var phrase: String {
    switch self {
    case .text: "an ISO-8601 date text"
    case .whole: "a whole number"
    case .zone: "a time zone name such as \"Europe/Paris\""
    }
  }
}
