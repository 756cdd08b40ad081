/// One entry of the formula languages' function table: everything the front end, the checkers
/// and the help text need to know about a function, in one place.
///
/// The parser looks calls up here (an unknown name or a wrong argument count is a parse error),
/// each context's checker types the call by its ``typing`` rule, and each back end runs its
/// ``operation``. Adding a function is adding an entry to ``FormulaBuiltin/table`` (see
/// `FormulaBuiltin+Table.swift`), with an operation (and, for a new kind of signature, a typing
/// rule) that the back ends implement.
///
/// Invariant: names are unique in the table; an entry whose operation a back end cannot run
/// does not list that back end's context.
package struct FormulaBuiltin: Sendable {
  /// An index of ``FormulaBuiltin/table``; what a syntax tree's call node holds.
  struct ID: Sendable, Hashable {
    let index: Int
  }

  /// How many arguments a function accepts.
  enum Arity: Sendable, Hashable {
    case exactly(Int)
    case atLeast(Int)
    /// From `low` to `high` arguments (`round(x[, digits])`).
    case between(Int, Int)

    func accepts(_ count: Int) -> Bool {
      switch self {
      case .exactly(let n): count == n
      case .atLeast(let n): count >= n
      case .between(let low, let high): count >= low && count <= high
      }
    }

    /// "1 argument", "2 arguments", "at least 1 argument".
    var phrase: String {
      switch self {
      case .exactly(let n): "\(n) argument\(n == 1 ? "" : "s")"
      case .atLeast(let n): "at least \(n) argument\(n == 1 ? "" : "s")"
      case .between(let low, let high): "\(low) to \(high) arguments"
      }
    }
  }

  /// The types a function takes and gives (what a checker enforces and infers).
  enum Typing: Sendable, Hashable {
    /// The fixed argument and result types of the call's ``DateFunction``; a null argument
    /// gives null.
    case dates
    /// Every argument a number (`integer` or `number`), the result a `number`; a null argument
    /// gives null.
    case numbers
    /// One argument of any type; the result a `bool`, never null (`isNull`).
    case nullTest
    /// A `bool` condition, then two branches of a common type, which is the result; a null
    /// condition picks the second branch (`if`).
    case choice
    /// Arguments of these kinds (the last kind repeats for further arguments), the result of
    /// `result`'s kind; a null argument gives null (the string functions).
    case fixed([FormulaValueKind], result: FormulaValueKind)
    /// Arguments of one common type (integers widen to numbers), which is the result
    /// (`coalesce`).
    case common
    /// A value and the items it is looked for among, all comparable with it; a `bool` (`in`).
    case membership
  }

  /// What a back end runs for a call.
  package enum Operation: Sendable, Hashable {
    /// A date function of ``DateFunction`` (row formulas).
    case date(DateFunction)
    /// A numeric function of ``FormulaFunction`` (both back ends).
    case numeric(FormulaFunction)
    /// `isNull(x)` (row formulas).
    case isNull
    /// `if(condition, a, b)` (row formulas).
    case choose
    /// A string function of ``FormulaTextFunction`` (row formulas).
    case text(FormulaTextFunction)
    /// `coalesce(a, b, …)` (row formulas).
    case coalesce
    /// `x in (a, b, …)` (row formulas).
    case member
  }

  /// The name a formula calls it by (case-sensitive).
  let name: String
  let arity: Arity
  /// The languages that have it.
  let contexts: [FormulaContext]
  let typing: Typing
  let operation: Operation
  /// One line for `flow help formulas`, e.g. "square root".
  let summary: String
  /// A call and its result, e.g. `sqrt(16)` → `4`.
  let example: String
  /// How SQL writes it per dialect, when one template does (else FlowSQL's translator does).
  var sql: FormulaSQL? = nil

  /// The entry of a numeric function, in both languages.
  static func numeric(_ function: FormulaFunction, _ summary: String, _ example: String, sql: FormulaSQL? = nil)
    -> FormulaBuiltin
  {
    FormulaBuiltin(
      name: function.name, arity: function.arity, contexts: [.scalar, .row], typing: .numbers,
      operation: .numeric(function), summary: summary, example: example, sql: sql)
  }

  /// The entry of a string function (row formulas).
  static func text(
    _ function: FormulaTextFunction, _ arguments: [FormulaValueKind], _ result: FormulaValueKind,
    _ summary: String, _ example: String, sql: FormulaSQL? = nil
  ) -> FormulaBuiltin {
    FormulaBuiltin(
      name: function.name, arity: function.arity, contexts: [.row],
      typing: .fixed(arguments, result: result), operation: .text(function),
      summary: summary, example: example, sql: sql)
  }

  /// How SQL writes `operation` per dialect, when its entry has a template.
  package static func sql(for operation: Operation) -> FormulaSQL? { sqlByOperation[operation] }

  private static let sqlByOperation: [Operation: FormulaSQL] = {
    var templates: [Operation: FormulaSQL] = [:]
    for entry in table { if let sql = entry.sql { templates[entry.operation] = sql } }
    return templates
  }()

  /// The entry with this id.
  static subscript(id: ID) -> FormulaBuiltin { table[id.index] }

  /// The function a formula of `context` calls `name`, or nil when it has none of that name.
  static func lookUp(_ name: String, in context: FormulaContext) -> ID? {
    guard let index = indexByName[name], table[index].contexts.contains(context) else { return nil }
    // `in` is a word of the row language, written `x in (…)`, never called by name.
    return ID(index: index)
  }

  /// The names `context` knows that are closest to `name` (for a did-you-mean), best first.
  static func suggestions(for name: String, in context: FormulaContext) -> [String] {
    FormulaSuggestion.closest(
      to: name, among: table.lazy.filter { $0.contexts.contains(context) && context.word($0.name) == nil }.map(\.name))
  }

  private static let indexByName: [String: Int] = {
    var index: [String: Int] = [:]
    for (position, entry) in table.enumerated() {
      precondition(index.updateValue(position, forKey: entry.name) == nil, "duplicate function \(entry.name)")
    }
    return index
  }()
}
