import FlowNodes
import FlowRuntime
@testable import FlowSQL
import FlowTestSupport
import Testing

/// No byte of a document or a data file ends a statement, a meta-command or a comment: random
/// hostile column names, node ids and paths (control characters, quotes, backquotes,
/// backslashes, `*/`, `;`, `--`, `${`, U+2028, NUL) exported in every dialect give either a
/// one-line error naming the node, or a script that splits into exactly the statements of the
/// same graph with plain names — for the server's lexer, for spark-sql's splitter and for psql's
/// meta-commands — and quotes each name so that it reads back as itself. The same holds for
/// strings that reach the script as constants: a `text` node feeding a row formula's `@name` or
/// a writer's `path` param.
@Suite struct SQLInjectionPropertyTests {
  /// The pieces hostile names are made of.
  static let pieces: [String] = [
    "a", "Z", "é", "東", " ", "\"", "'", "`", "\\", ";", "--", "/*", "*/", "$", "${x}", ":v", "-", "*", "/", "\\!",
    "\\copy",
    "\n", "\r", "\t", "\u{0}", "\u{1B}[31m", "\u{2028}", "\u{2029}", "\u{85}", "\u{202E}", "\n\\! touch PWNED\n"
  ]

  static func hostileName(_ random: inout SeededRandom) -> String {
    var name = ""
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      // Mostly printable pieces, so that many names export and their scripts are checked.
      let piece = Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
      if piece.unicodeScalars.contains(where: {
        $0.value < 0x20 || $0.value >= 0x80 && $0.value < 0xA0 || $0.value >= 0x2028
      }),
        Int.random(in: 0..<3, using: &random) > 0
      {
        continue
      }
      name += piece
    }
    return name
  }

  /// The script, or the error, of a reader (`id`) with `columns` into a writer of `path`.
  static func export(_ dialect: SQLDialect, id: String, columns: [String], path: String) -> Result<
    String, SQLExportError
  > {
    let header = columns.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
    let csv = header + "\n" + columns.indices.map { "\($0)" }.joined(separator: ",") + "\n"
    let json =
      #"{"nodes": [{"id": \#(jsonString(id)), "data": {"kind": "readCSV", "params": {"path": "t.csv"}}, "position": [0, 0]},"#
      + #" {"id": "w", "data": {"kind": "writeCSV", "params": {"path": \#(jsonString(path))}}, "position": [0, 0]}],"#
      + #" "edges": [{"id": "e", "sourceNodeID": \#(jsonString(id)), "targetNodeID": "w", "targetHandleID": "table"}]}"#
    do {
      return .success(try SQLTestSupport.export(json, dialect, files: ["t.csv": csv]))
    } catch let error as SQLExportError {
      return .failure(error)
    } catch {
      return .failure(SQLExportError(node: nil, "not an export error: \(error)"))
    }
  }

  static func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20:
        result +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  @Test(arguments: 0..<60)
  func hostileNamesNeverEndAStatementACommandOrAComment(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed))
    let columns = (0..<3).map { Self.hostileName(&random) + "\($0)" }
    let id = Self.hostileName(&random) + "r"
    let path =
      Self.hostileName(&random).replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\u{0}", with: "_")
      + ".csv"
    for dialect in SQLDialect.allCases {
      let plain = try Self.export(dialect, id: "r", columns: ["c0", "c1", "c2"], path: "out.csv").get()
      switch Self.export(dialect, id: id, columns: columns, path: path) {
      case .failure(let error):
        #expect(!error.reason.hasPrefix("not an export error"), "\(dialect) seed \(seed): \(error)")
        #expect(!error.description.contains("\n"), "the message is one line")
        #expect(error.node != nil, "the error names a node")
      case .success(let script):
        let controls = script.unicodeScalars.filter { $0 != "\n" && $0.controlEscape != nil }
        #expect(controls.isEmpty, "\(dialect) seed \(seed): the script holds \(controls.map(\.value))")
        let statements = SQLScriptReader.statements(script, dialect)
        #expect(
          statements.count == SQLScriptReader.statements(plain, dialect).count, "\(dialect) seed \(seed):\n\(script)")
        if dialect == .spark {
          #expect(
            SQLScriptReader.sparkCLIStatements(script).count == statements.count,
            "spark-sql splits seed \(seed):\n\(script)")
        }
        if dialect == .postgres {
          let commands = SQLScriptReader.psqlMetaCommands(script)
          #expect(
            commands.count == 1 && commands.allSatisfy { $0.hasPrefix("\\copy ") && $0.hasSuffix("NULL '')") },
            "\(commands)")
        }
        for column in columns {
          #expect(script.contains(dialect.quote(column)))
          #expect(SQLScriptReader.decodeIdentifier(dialect.quote(column), dialect) == column)
        }
      }
    }
  }

  @Test(arguments: 0..<200)
  func quotedNamesAndLiteralsReadBackOrAreRefused(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed) &+ 1_000)
    let text = Self.hostileName(&random)
    for dialect in SQLDialect.allCases {
      let quoted = dialect.quote(text)
      #expect(!quoted.unicodeScalars.contains { $0.controlEscape != nil })
      if dialect.identifierProblem(text) == nil {
        #expect(SQLScriptReader.decodeIdentifier(quoted, dialect) == text, "\(dialect): \(quoted)")
      } else {
        #expect(quoted.contains("\u{FFFD}"), "a refused name is never written as it is")
      }
      let literal = dialect.literal(text)
      #expect(!literal.unicodeScalars.contains { $0.controlEscape != nil })
      #expect(SQLScriptReader.decodeLiteral(literal, dialect) == text, "\(dialect): \(literal)")
      if dialect == .spark { #expect(!literal.contains("${")) }
      #expect(SQLScriptReader.statements(literal, dialect) == [literal], "\(dialect): one token, no statement end")
    }
  }

  /// The script, or the error, of a `text` node holding `value` fed to a `derive` as `@s` and
  /// to a `writeCSV`'s `path` param (issue 37: constants exported as literals).
  static func exportFed(_ dialect: SQLDialect, value: String, path: String) -> Result<String, SQLExportError> {
    let json = SQLTestSupport.graph(
      [
        ("r", "readCSV", #"{"path": "t.csv"}"#), ("s", "text", #"{"value": \#(jsonString(value))}"#),
        ("p", "text", #"{"value": \#(jsonString(path))}"#),
        ("d", "derive", #"{"columns": {"v": "@s", "w": "concat(@s, c)"}}"#), ("w", "writeCSV", #"{"path": "out.csv"}"#)
      ],
      [("r", "d", "table"), ("s", "d", "s"), ("d", "w", "table"), ("p", "w", "path")])
    do {
      return .success(try SQLTestSupport.export(json, dialect, files: ["t.csv": "c\n1\n"]))
    } catch let error as SQLExportError {
      return .failure(error)
    } catch {
      return .failure(SQLExportError(node: nil, "not an export error: \(error)"))
    }
  }

  @Test(arguments: 0..<60)
  func hostileStringsOnAtNamesAndFedParamsAreOneLiteralEach(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &+ 2_000)
    let value = Self.hostileName(&random)
    let path =
      Self.hostileName(&random).replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\u{0}", with: "_")
      + ".csv"
    for dialect in SQLDialect.allCases {
      let plain = try Self.exportFed(dialect, value: "x", path: "o.csv").get()
      switch Self.exportFed(dialect, value: value, path: path) {
      case .failure(let error):
        #expect(!error.reason.hasPrefix("not an export error"), "\(dialect) seed \(seed): \(error)")
        #expect(!error.description.contains("\n"), "the message is one line")
        #expect(error.node != nil, "the error names a node")
      case .success(let script):
        let controls = script.unicodeScalars.filter { $0 != "\n" && $0.controlEscape != nil }
        #expect(controls.isEmpty, "\(dialect) seed \(seed): the script holds \(controls.map(\.value))")
        let statements = SQLScriptReader.statements(script, dialect)
        #expect(
          statements.count == SQLScriptReader.statements(plain, dialect).count, "\(dialect) seed \(seed):\n\(script)")
        if dialect == .spark {
          #expect(
            SQLScriptReader.sparkCLIStatements(script).count == statements.count,
            "spark-sql splits seed \(seed):\n\(script)")
        }
        if dialect == .postgres {
          let commands = SQLScriptReader.psqlMetaCommands(script)
          #expect(commands.count == 1 && commands.allSatisfy { $0.hasPrefix("\\copy ") }, "\(commands)")
        }
        #expect(
          script.contains(dialect.literal(value)), "\(dialect) seed \(seed): the value is one literal:\n\(script)")
        #expect(SQLScriptReader.decodeLiteral(dialect.literal(value), dialect) == value)
      }
    }
  }

  @Test func aHeaderWithALineBreakIsRefusedForEveryDialectNamingTheColumn() throws {
    for dialect in SQLDialect.allCases {
      let result = Self.export(dialect, id: "report", columns: ["id", "x\n\\! touch PWNED\n"], path: "out.csv")
      guard case .failure(let error) = result else {
        Issue.record("\(dialect) exported a header with a line break")
        continue
      }
      #expect(error.node == "report")
      #expect(
        error.description.hasPrefix(
          #"node 'report': the column 'x\n\! touch PWNED\n' holds the control character U+000A"#))
    }
  }

  @Test func sparkRefusesWhatItsStatementSplitterReadsOutsideBackquotes() throws {
    for name in ["a;b", "it's", #"say "hi""#, #"a\b"#, "a--b", "a/*b", "a*/b", "${env:HOME}"] {
      #expect(SQLDialect.spark.identifierProblem(name) != nil, "\(name)")
      #expect(SQLDialect.duckdb.identifierProblem(name) == nil, "\(name)")
    }
    #expect(SQLDialect.spark.identifierProblem("body-mass km/h * 2") == nil)
  }

  @Test func pathsMustBeOnePlainLiteral() throws {
    guard case .failure(let error) = Self.export(.postgres, id: "r", columns: ["a"], path: "out\n\\! rm x.csv") else {
      Issue.record("a path with a line break exported")
      return
    }
    #expect(error.node == "w")
    #expect(
      error.description
        == #"node 'w': param 'path' holds the control character U+000A, which a plain postgres literal cannot carry"#)
  }

  @Test func postgresScriptsSetStandardConformingStrings() throws {
    let script = try Self.export(.postgres, id: "r", columns: [#"a\b"#], path: #"o\'.csv"#).get()
    #expect(script.contains("SET standard_conforming_strings = on;"))
    #expect(script.contains(#""a\b""#))
  }

  @Test func everyNodeWithoutASQLFormIsNamedAtOnce() throws {
    let json = SQLTestSupport.graph(
      [
        ("tick", "clock", #"{"interval": 1}"#), ("t", "readCSV", #"{"path": "t.csv"}"#),
        ("n", "rowCount", "{}"), ("label", "text", #"{"value": "x"}"#)
      ], [("t", "n", "table")])
    do {
      _ = try SQLTestSupport.export(json, files: ["t.csv": "a\n1\n"])
      Issue.record("exported live and scalar nodes")
    } catch let error as SQLExportError {
      #expect(Set(error.all.compactMap(\.node)) == ["tick", "n", "label"])
      #expect(error.description.split(separator: "\n").count == 3)
    }
  }
}
