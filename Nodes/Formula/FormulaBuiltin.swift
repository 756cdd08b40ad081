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
struct FormulaBuiltin: Sendable {
  /// An index of ``FormulaBuiltin/table``; what a syntax tree's call node holds.
  struct ID: Sendable, Hashable {
    let index: Int
  }

  /// How many arguments a function accepts.
  enum Arity: Sendable, Hashable {
    case exactly(Int)
    case atLeast(Int)

    func accepts(_ count: Int) -> Bool {
      switch self {
      case .exactly(let n): count == n
      case .atLeast(let n): count >= n
      }
    }

    /// "1 argument", "2 arguments", "at least 1 argument".
    var phrase: String {
      switch self {
      case .exactly(let n): "\(n) argument\(n == 1 ? "" : "s")"
      case .atLeast(let n): "at least \(n) argument\(n == 1 ? "" : "s")"
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
  }

  /// What a back end runs for a call.
  enum Operation: Sendable, Hashable {
    /// A date function of ``DateFunction`` (row formulas).
    case date(DateFunction)
    /// A numeric function of ``FormulaFunction`` (both back ends).
    case numeric(FormulaFunction)
    /// `isNull(x)` (row formulas).
    case isNull
    /// `if(condition, a, b)` (row formulas).
    case choose
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

  /// The entry of a numeric function, in both languages.
  static func numeric(_ function: FormulaFunction, _ summary: String, _ example: String) -> FormulaBuiltin {
    FormulaBuiltin(name: function.name, arity: function.arity, contexts: [.scalar, .row], typing: .numbers,
                   operation: .numeric(function), summary: summary, example: example)
  }

  /// The entry with this id.
  static subscript(id: ID) -> FormulaBuiltin { table[id.index] }

  /// The function a formula of `context` calls `name`, or nil when it has none of that name.
  static func lookUp(_ name: String, in context: FormulaContext) -> ID? {
    guard let index = indexByName[name], table[index].contexts.contains(context) else { return nil }
    return ID(index: index)
  }

  /// The names `context` knows that are closest to `name` (for a did-you-mean), best first.
  static func suggestions(for name: String, in context: FormulaContext) -> [String] {
    FormulaSuggestion.closest(to: name, among: table.lazy.filter { $0.contexts.contains(context) }.map(\.name))
  }

  private static let indexByName: [String: Int] = {
    var index: [String: Int] = [:]
    for (position, entry) in table.enumerated() {
      precondition(index.updateValue(position, forKey: entry.name) == nil, "duplicate function \(entry.name)")
    }
    return index
  }()
}
