@testable import FlowSQL

/// Reads an exported script the way the programs that run it do, to check that no name or text
/// ends a statement, a meta-command or a comment early:
///
/// - ``statements(_:_:)``: the dialect's own lexer (quotes, `--` and `/* */` comments): the
///   statements a server parses;
/// - ``sparkCLIStatements(_:)``: spark-sql's splitter (it tracks `'`, `"`, `\`, `--`, `/* */`,
///   not backquotes);
/// - ``psqlMetaCommands(_:)``: the lines psql runs as meta-commands (a line whose first
///   character outside any quote or comment is a backslash; the command runs to the line's end).
enum SQLScriptReader {
  /// The statements (trimmed, comments kept out), split at `;` outside quotes and comments.
  static func statements(_ script: String, _ dialect: SQLDialect) -> [String] {
    let scalars = Array(script.unicodeScalars)
    var statements: [String] = []
    var current = String.UnicodeScalarView()
    var index = 0
    var atLineStart = true
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\\" && atLineStart && dialect == .postgres {
        // A psql meta-command: the rest of the line.
        var line = String.UnicodeScalarView()
        while index < scalars.count && scalars[index] != "\n" { line.append(scalars[index]); index += 1 }
        statements.append(String(line))
        continue
      }
      if scalar == "-" && index + 1 < scalars.count && scalars[index + 1] == "-" {
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
        continue
      }
      if scalar == "'" || scalar == "\"" || scalar == "`" {
        let close = scalar
        current.append(scalar)
        index += 1
        while index < scalars.count {
          let inner = scalars[index]
          if dialect == .spark && close == "'" && inner == "\\" && index + 1 < scalars.count {
            current.append(inner); current.append(scalars[index + 1]); index += 2; continue
          }
          current.append(inner)
          index += 1
          if inner == close {
            if index < scalars.count && scalars[index] == close { current.append(close); index += 1; continue }
            break
          }
        }
        atLineStart = false
        continue
      }
      if scalar == ";" {
        statements.append(String(current).trimmingSpaces)
        current = String.UnicodeScalarView()
        index += 1
        continue
      }
      if scalar == "\n" { atLineStart = true } else if scalar != " " { atLineStart = false }
      current.append(scalar)
      index += 1
    }
    let rest = String(current).trimmingSpaces
    if !rest.isEmpty { statements.append(rest) }
    return statements
  }

  /// The statements spark-sql's command-line splitter cuts the script into.
  static func sparkCLIStatements(_ script: String) -> [String] {
    let scalars = Array(script.unicodeScalars)
    var statements: [String] = []
    var current = String.UnicodeScalarView()
    var single = false, double = false, simpleComment = false, bracketed = 0, escape = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
      defer { index += 1 }
      if scalar == "\n" { simpleComment = false }
      let inComment = simpleComment || bracketed > 0
      if escape { escape = false; current.append(scalar); continue }
      if (single || double) && scalar == "\\" { escape = true; current.append(scalar); continue }
      if scalar == "'" && !inComment && !double {
        single.toggle()
      } else if scalar == "\"" && !inComment && !single {
        double.toggle()
      } else if !single && !double {
        if scalar == "-" && next == "-" && bracketed == 0 {
          simpleComment = true
        } else if scalar == "/" && next == "*" && !simpleComment {
          bracketed += 1
        } else if scalar == "*" && next == "/" && bracketed > 0 {
          bracketed -= 1
        } else if scalar == ";" && !inComment {
          statements.append(String(current))
          current = String.UnicodeScalarView()
          continue
        }
      }
      current.append(scalar)
    }
    if !String(current).trimmingSpaces.isEmpty { statements.append(String(current)) }
    return statements.map(\.withoutLineComments)
  }

  /// The lines psql runs as meta-commands.
  static func psqlMetaCommands(_ script: String) -> [String] {
    statements(script, .postgres).filter { $0.hasPrefix("\\") }
  }

  /// `'…'` literal pieces joined with `||` (and `chr(n)`), decoded; nil if `sql` is not one.
  static func decodeLiteral(_ sql: String, _ dialect: SQLDialect) -> String? {
    var body = sql
    if body.hasPrefix("(") && body.hasSuffix(")") { body = String(body.dropFirst().dropLast()) }
    var result = String.UnicodeScalarView()
    let scalars = Array(body.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if scalars[index] == "'" {
        index += 1
        while true {
          guard index < scalars.count else { return nil }
          let scalar = scalars[index]
          if dialect == .spark && scalar == "\\" && index + 1 < scalars.count {
            result.append(scalars[index + 1]); index += 2; continue
          }
          index += 1
          if scalar == "'" {
            if dialect != .spark && index < scalars.count && scalars[index] == "'" {
              result.append("'"); index += 1; continue
            }
            break
          }
          result.append(scalar)
        }
      } else if String(String.UnicodeScalarView(scalars[index...])).hasPrefix("chr(") {
        guard let close = scalars[index...].firstIndex(of: ")"),
          let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 4)..<close]))),
          let scalar = Unicode.Scalar(value)
        else { return nil }
        result.append(scalar)
        index = close + 1
      } else {
        return nil
      }
      if index < scalars.count {
        guard String(String.UnicodeScalarView(scalars[index...])).hasPrefix(" || ") else { return nil }
        index += 4
      }
    }
    return String(result)
  }

  /// `"…"` (or `` `…` `` on Spark) decoded; nil if `sql` is not one quoted identifier.
  static func decodeIdentifier(_ sql: String, _ dialect: SQLDialect) -> String? {
    let mark: Character = dialect == .spark ? "`" : "\""
    guard sql.count >= 2, sql.first == mark, sql.last == mark else { return nil }
    let inner = sql.dropFirst().dropLast()
    var result = ""
    var index = inner.startIndex
    while index < inner.endIndex {
      let character = inner[index]
      if character == mark {
        let next = inner.index(after: index)
        guard next < inner.endIndex, inner[next] == mark else { return nil }
        index = inner.index(after: next)
      } else {
        index = inner.index(after: index)
      }
      result.append(character)
    }
    return result
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var scalars = Substring(self)
    while let first = scalars.first, first == " " || first == "\n" { scalars = scalars.dropFirst() }
    while let last = scalars.last, last == " " || last == "\n" { scalars = scalars.dropLast() }
    return String(scalars)
  }

  /// The text without its `--` comment lines, trimmed.
  fileprivate var withoutLineComments: String {
    split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("--") }.joined(separator: "\n")
      .trimmingSpaces
  }
}
