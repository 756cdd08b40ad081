/// How a function of the formula table is written in SQL, per dialect: a template whose `$1`,
/// `$2`, … stand for the arguments, by dialect name (`duckdb`, `postgres`, `spark`, `trino`),
/// with one template for every dialect not named.
///
/// An entry of ``FormulaBuiltin/table`` holds one when its SQL is a template; FlowSQL's
/// translator converts the arguments as the entry's typing says (numbers to doubles) and fills
/// them in. An entry without one (`round`, `min`, `substr`, `concat`, …) is written by the
/// translator's own code, because its meaning needs more than one template: null handling
/// the engines differ on, a type-dependent conversion, or a computed argument.
///
/// Invariant: every `$n` in a template is between 1 and 9.
package struct FormulaSQL: Sendable, Hashable {
  /// One part of a template: text as it is, or an argument (0-based).
  package enum Part: Sendable, Hashable {
    case text(String)
    case argument(Int)
  }

  private let everywhere: String
  private let byDialect: [String: String]

  /// `template` in every dialect but those `overrides` names.
  init(_ template: String, _ overrides: [String: String] = [:]) {
    everywhere = template
    byDialect = overrides
  }

  /// The template for `dialect`, split into parts.
  package func parts(for dialect: String) -> [Part] {
    var parts: [Part] = []
    var text = ""
    var characters = (byDialect[dialect] ?? everywhere)[...]
    while let character = characters.popFirst() {
      if character == "$", let digit = characters.first?.wholeNumberValue, digit >= 1 {
        characters.removeFirst()
        if !text.isEmpty { parts.append(.text(text)) }
        text = ""
        parts.append(.argument(digit - 1))
      } else {
        text.append(character)
      }
    }
    if !text.isEmpty { parts.append(.text(text)) }
    return parts
  }
}
