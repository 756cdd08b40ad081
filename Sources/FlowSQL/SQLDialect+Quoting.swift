import FlowGraph
import FlowRuntime

/// The one identifier form and the one string-literal form of each dialect, and the names and
/// texts they cannot carry.
///
/// The rule they keep: **no byte of a document or a data file ends a statement, a meta-command
/// or a comment** of the script, whichever program runs it (`duckdb`, `psql -f`,
/// `spark-sql -f`, the Trino CLI). The script holds no control character but the line feeds the
/// writer puts between statements, so nothing a name holds can end psql's `\copy` line (a
/// meta-command runs to the end of its line) or a `--` comment:
///
/// - an identifier is quoted (`"…"` doubling `"`; Spark: `` `…` `` doubling `` ` ``). A quoted
///   identifier has no escape for a control character in any dialect, so a name holding one
///   (C0, DEL, C1, U+2028/U+2029, the bidirectional controls: the characters
///   `controlEscaped` escapes) is refused (``identifierProblem(_:)``);
/// - `spark-sql -f` splits the file into statements itself, tracking `'`, `"`, `\`, `--` and
///   `/* */` but not backquotes, so on Spark a name holding `;`, `'`, `"`, `\`, `--`, `/*`, `*/`
///   or `${` (variable substitution) is refused too;
/// - a string literal is `'…'` doubling `'` (Postgres: the script sets
///   `standard_conforming_strings`, so a backslash is a backslash; Spark: `\` and `'` are
///   backslash-escaped, `$` is written `chr(36)` so `${…}` substitutes nothing), and every
///   control character is a `chr(n)` piece joined with `||`;
/// - where the form must be one plain literal (a path: psql's `\copy … FROM 'file'`, DuckDB's
///   `COPY … TO`, Spark's `OPTIONS (path …)`), a text that needs a `chr(n)` piece is refused
///   (``plainLiteralProblem(_:)``).
///
/// The compiler asks ``identifierProblem(_:)`` of every node id and column name before it
/// writes a statement; ``quote(_:)`` itself still writes U+FFFD for anything refused, so even a
/// name that was never checked cannot break the script.
extension SQLDialect {
  /// `"name"` (doubling `"`), or `` `name` `` on Spark (doubling `` ` ``); any other Unicode is
  /// kept. A character ``identifierProblem(_:)`` refuses is written as U+FFFD.
  func quote(_ name: String) -> String {
    let mark: Unicode.Scalar = self == .spark ? "`" : "\""
    var text = String(Character(mark))
    text.reserveCapacity(name.utf8.count + 2)
    var previous: Unicode.Scalar = " "
    for scalar in name.unicodeScalars {
      if scalar.controlEscape != nil || (self == .spark && Self.sparkSplits(previous, scalar)) {
        text.unicodeScalars.append("\u{FFFD}")
      } else {
        if scalar == mark { text.unicodeScalars.append(mark) }
        text.unicodeScalars.append(scalar)
      }
      previous = scalar
    }
    text.unicodeScalars.append(mark)
    return text
  }

  /// Why `name` cannot be written as an identifier of this dialect (a phrase: "holds the
  /// control character U+000A, …"), or nil when ``quote(_:)`` writes it as it is.
  func identifierProblem(_ name: String) -> String? {
    var previous: Unicode.Scalar = " "
    for scalar in name.unicodeScalars {
      if scalar.controlEscape != nil {
        return "holds the control character \(Self.codePoint(scalar)), which no quoted \(rawValue) identifier can carry"
      }
      if self == .spark, Self.sparkSplits(previous, scalar) {
        let shown =
          Self.sparkPairs.contains { $0.0 == previous && $0.1 == scalar } ? "\(previous)\(scalar)" : "\(scalar)"
        return "holds '\(shown)', which spark-sql's statement splitter reads outside backquotes"
      }
      previous = scalar
    }
    return nil
  }

  /// `'text'` (see the rule above); control characters (and `$` on Spark) are `chr(n)` pieces
  /// joined with `||`, so the script holds none and a tab stays a tab.
  func literal(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsPiece) else { return plainLiteral(text) }
    var pieces: [String] = []
    var run = ""
    for scalar in text.unicodeScalars {
      if needsPiece(scalar) {
        if !run.isEmpty { pieces.append(plainLiteral(run)) }
        run = ""
        pieces.append("chr(\(scalar.value))")
      } else {
        run.unicodeScalars.append(scalar)
      }
    }
    if !run.isEmpty { pieces.append(plainLiteral(run)) }
    return "(" + pieces.joined(separator: " || ") + ")"
  }

  /// Why `text` cannot be one plain literal (``literal(_:)`` would need `chr(n)` pieces), or nil.
  func plainLiteralProblem(_ text: String) -> String? {
    guard let scalar = text.unicodeScalars.first(where: needsPiece) else { return nil }
    if scalar == "$" { return "holds '$', which spark-sql substitutes in a plain literal" }
    return "holds the control character \(Self.codePoint(scalar)), which a plain \(rawValue) literal cannot carry"
  }

  private func needsPiece(_ scalar: Unicode.Scalar) -> Bool {
    scalar.controlEscape != nil || (self == .spark && scalar == "$")
  }

  private func plainLiteral(_ text: String) -> String {
    switch self {
    case .spark: "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    default: "'" + text.replacingAll("'", with: "''") + "'"
    }
  }

  /// The sequences spark-sql's splitter reads as comment marks.
  private static let sparkPairs: [(Unicode.Scalar, Unicode.Scalar)] = [("-", "-"), ("/", "*"), ("*", "/"), ("$", "{")]

  /// Whether `scalar` (after `previous`) changes the state of spark-sql's statement splitter.
  private static func sparkSplits(_ previous: Unicode.Scalar, _ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case ";", "'", "\"", "\\": true
    default: sparkPairs.contains { $0.0 == previous && $0.1 == scalar }
    }
  }

  /// `U+000A`.
  private static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
