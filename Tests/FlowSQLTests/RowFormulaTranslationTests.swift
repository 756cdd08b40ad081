import FlowNodes
@testable import FlowSQL
import Testing

/// The translation of row formulas: operators, nulls, types, and every function per dialect.
@Suite struct RowFormulaTranslationTests {
  /// The columns formulas here may use.
  static let columns: [String: SQLType] = ["i": .integer, "n": .number, "s": .string, "b": .bool, "d": .string]

  static func translate(_ text: String, _ dialect: SQLDialect = .duckdb) throws -> (sql: String, type: SQLType) {
    var translator = RowFormulaTranslator(dialect: dialect)
    let expression = try translator.translate(try RowFormula(parsing: text)) { name in
      columns[name].map { (dialect.quote(name), $0) }
    }
    return (translator.rope.string(expression.node), expression.type)
  }

  /// A call of each function of `flow help formulas`, with arguments of the types it takes.
  static let calls: [String: String] = [
    "sqrt": "sqrt(n)", "abs": "abs(i)", "sign": "sign(n)", "min": "min(i, n, 2)", "max": "max(i, n)",
    "clamp": "clamp(n, 0, 1)", "floor": "floor(n)", "ceil": "ceil(n)", "trunc": "trunc(n)", "round": "round(n, 2)",
    "sin": "sin(n)", "cos": "cos(n)", "tan": "tan(n)", "asin": "asin(n)", "acos": "acos(n)", "atan": "atan(n)",
    "atan2": "atan2(n, i)", "hypot": "hypot(n, i)", "log": "log(n)", "ln": "ln(n)", "log10": "log10(n)",
    "log2": "log2(n)",
    "exp": "exp(n)", "pow": "pow(n, 2)", "len": "len(s)", "lower": "lower(s)", "upper": "upper(s)", "trim": "trim(s)",
    "substr": "substr(s, 2, 3)", "contains": "contains(s, \"x\")", "startsWith": "startsWith(s, \"x\")",
    "endsWith": "endsWith(s, \"x\")", "replace": "replace(s, \"a\", \"b\")", "concat": "concat(s, i, b)",
    "string": "string(n)", "number": "number(s)", "isNull": "isNull(n)", "if": "if(b, i, n)",
    "coalesce": "coalesce(i, n)",
    "in": "i in (1, 2, null)", "year": "year(d)", "month": "month(d)", "day": "day(d)", "hour": "hour(d)",
    "minute": "minute(d)", "second": "second(d)", "weekday": "weekday(d)", "date": "date(2024, 2, 29)",
    "days": "days(d, \"2024-01-01\")", "addDays": "addDays(d, 2)", "like": "like(s, \"a\\\\%_%\")",
    "format": "format(n, \".1%\")", "weekdayName": "weekdayName(d)", "monthName": "monthName(d)",
    "inTimeZone": "inTimeZone(d, \"America/New_York\")"
  ]

  /// The calls a dialect cannot translate exactly (an export error naming function and dialect).
  static let untranslatable: Set<String> = [
    "trino string", "duckdb format", "postgres format", "spark format", "trino format"
  ]

  @Test func everyFunctionHasASampleCall() {
    let missing = RowFormula.functionNames.filter { Self.calls[$0] == nil }
    #expect(missing.isEmpty, "functions without a sample call (add one, and a translation): \(missing)")
  }

  @Test(arguments: SQLDialect.allCases)
  func everyFunctionTranslatesOrNamesItselfAndTheDialect(dialect: SQLDialect) throws {
    for name in RowFormula.functionNames {
      guard let call = Self.calls[name] else { continue }
      if Self.untranslatable.contains("\(dialect.rawValue) \(name)") {
        #expect(throws: SQLFormulaError.self) { try Self.translate(call, dialect) }
        do { _ = try Self.translate(call, dialect) } catch let error as SQLFormulaError {
          #expect(error.message.contains("'\(name)'") && error.message.contains(dialect.rawValue), "\(error.message)")
        }
        continue
      }
      let (sql, type) = try Self.translate(call, dialect)
      #expect(!sql.isEmpty && type != .null, "\(dialect) \(call) → \(sql)")
    }
  }

  /// Spellings that differ per dialect: (formula, dialect, a piece the SQL must contain).
  static let spellings: [(String, SQLDialect, String)] = [
    ("len(s)", .duckdb, "length(\"s\")"), ("len(s)", .postgres, "char_length(\"s\")"),
    ("len(s)", .spark, "char_length(`s`)"),
    ("log2(n)", .postgres, "(ln(\"n\") / ln(2.0))"), ("log2(n)", .trino, "log2(\"n\")"), ("log(n)", .spark, "ln(`n`)"),
    ("trunc(n)", .trino, "truncate(\"n\")"), ("sign(n)", .spark, "signum(`n`)"),
    ("floor(n)", .spark, "CAST(floor(`n`) AS DOUBLE)"),
    ("pow(n, 2)", .postgres, "power(\"n\", "), ("n ^ 2", .duckdb, "pow(\"n\", "),
    ("round(n, 2)", .postgres, "CAST(round(CAST(\"n\" AS NUMERIC), CAST(2::BIGINT AS INTEGER)) AS DOUBLE PRECISION)"),
    ("weekday(d)", .duckdb, "isodow(CAST(substring(\"d\", 1, 10) AS DATE))"),
    ("weekday(d)", .spark, "weekday(CAST(substring(`d`, 1, 10) AS DATE)) + 1"),
    ("weekday(d)", .trino, "day_of_week(CAST(substr(\"d\", 1, 10) AS DATE))"),
    ("weekday(d)", .postgres, "extract(isodow FROM "),
    ("endsWith(s, \"x\")", .trino, "starts_with(reverse(\"s\"), reverse('x'))"),
    ("contains(s, \"x\")", .spark, "(instr(`s`, 'x') > 0)"),
    ("startsWith(s, \"x\")", .spark, "startswith(`s`, 'x')"), ("trim(s)", .postgres, "btrim(\"s\", (' ' || chr(9)"),
    ("substr(s, 2)", .duckdb, "substring(\"s\", greatest(2::BIGINT, 1))"),
    ("days(d, d)", .spark, "datediff(to_date(CAST(`d` AS TIMESTAMP))"),
    ("date(2024, 2, 29)", .postgres, "to_char(make_date("), ("addDays(d, 1)", .trino, "date_add('day', BIGINT '1', "),
    ("string(i)", .spark, "CAST(`i` AS STRING)"), ("number(s)", .postgres, "CAST(trim(\"s\") AS DOUBLE PRECISION)")
  ]

  /// A function whose SQL is a template in its table entry: every dialect's template uses
  /// only the arguments a call has, and the translation is the template filled in.
  @Test func templatesInTheFunctionTableNameOnlyTheirArguments() throws {
    var templated = 0
    for operation in [FormulaBuiltin.Operation.numeric(.pow), .numeric(.hypot), .text(.replace), .text(.endsWith)] {
      let sql = try #require(FormulaBuiltin.sql(for: operation))
      templated += 1
      for dialect in SQLDialect.allCases {
        let arguments = sql.parts(for: dialect.rawValue).compactMap { part -> Int? in
          if case .argument(let index) = part { return index }
          return nil
        }
        #expect(!arguments.isEmpty && arguments.allSatisfy { $0 < 3 }, "\(operation) in \(dialect)")
      }
    }
    #expect(templated == 4)
    #expect(FormulaBuiltin.sql(for: .numeric(.round)) == nil, "round is written by the translator's own code")
    #expect(
      try Self.translate("replace(s, \"a\", \"b\")", .postgres).sql
        == "CASE WHEN 'a' = '' THEN \"s\" ELSE replace(\"s\", 'a', 'b') END")
  }

  @Test func eachDialectSpellsFunctionsItsWay() throws {
    for (formula, dialect, piece) in Self.spellings {
      let sql = try Self.translate(formula, dialect).sql
      #expect(sql.contains(piece), "\(dialect) \(formula) → \(sql)")
    }
  }

  @Test func resultTypesFollowFlow() throws {
    #expect(try Self.translate("i + 1").type == .integer)
    #expect(try Self.translate("i * i - 2").type == .integer)
    #expect(try Self.translate("i / 2").type == .number)
    #expect(try Self.translate("i % 2").type == .number)
    #expect(try Self.translate("i + n").type == .number)
    #expect(try Self.translate("null + 1").type == .null)
    #expect(try Self.translate("len(s)").type == .integer)
    #expect(try Self.translate("if(b, 1, 2.5)").type == .number)
    #expect(try Self.translate("isNull(null)").type == .bool)
    #expect(try Self.translate("date(2024, 1, 2)").type == .string)
  }

  @Test func divisionAndRemainderByZeroAreNull() throws {
    #expect(try Self.translate("i / n").sql == #"(CAST("i" AS DOUBLE) / NULLIF("n", 0))"#)
    #expect(try Self.translate("n % 2").sql == #"("n" % NULLIF(CAST(2.0E0 AS DOUBLE), 0))"#)
    #expect(try Self.translate("n % 2", .postgres).sql.contains("mod(CAST(\"n\" AS NUMERIC), NULLIF("))
    #expect(try Self.translate("n % 2", .trino).sql == #"mod("n", NULLIF(2.0E0, 0))"#)
  }

  @Test func integerLiteralsAre64BitSoOverflowIsTheEnginesError() throws {
    #expect(try Self.translate("i + 1").sql == #"("i" + 1::BIGINT)"#)
    #expect(try Self.translate("i + 1", .spark).sql == "(`i` + 1L)")
    #expect(try Self.translate("i + 1", .trino).sql == #"("i" + BIGINT '1')"#)
  }

  @Test func stringsCompareByCodePointOnPostgres() throws {
    #expect(try Self.translate("s < \"é\"", .postgres).sql == #"("s" COLLATE "C" < 'é' COLLATE "C")"#)
    #expect(try Self.translate("s < \"é\"", .duckdb).sql == #"("s" < 'é')"#)
    #expect(try Self.translate("s == \"x\"", .postgres).sql == #"("s" = 'x')"#)
  }

  @Test func nullLogicIsSQLs() throws {
    #expect(try Self.translate("b and null or not b").sql == #"(("b" AND CAST(NULL AS BOOLEAN)) OR (NOT "b"))"#)
    #expect(try Self.translate("i in (1, null)").sql == #"("i" IN (1::BIGINT, NULL))"#)
    #expect(try Self.translate("if(b, i, 0)").sql == #"CASE WHEN "b" THEN "i" ELSE 0::BIGINT END"#)
    #expect(try Self.translate("isNull(s)").sql == #"("s" IS NULL)"#)
  }

  @Test func leastAndGreatestAreNullWhenAnArgumentIs() throws {
    #expect(
      try Self.translate("min(n, 1.5)").sql
        == #"CASE WHEN "n" IS NULL OR CAST(1.5E0 AS DOUBLE) IS NULL THEN NULL ELSE least("n", CAST(1.5E0 AS DOUBLE)) END"#
    )
    #expect(try Self.translate("min(n, 1.5)", .trino).sql == #"least("n", 1.5E0)"#)
  }

  @Test func comparingAStringWithANumberIsAnError() {
    #expect(throws: SQLFormulaError.self) { try Self.translate("s < 1") }
  }

  @Test func aMissingColumnIsNamed() {
    do {
      _ = try Self.translate("nope + 1")
      Issue.record("expected an error")
    } catch let error as SQLFormulaError {
      #expect(error.message == "no column 'nope' in the table")
    } catch { Issue.record("\(error)") }
  }

  @Test func deepFormulasDoNotRecurse() throws {
    let text = Array(repeating: "i", count: 20_000).joined(separator: " + ")
    let (sql, type) = try Self.translate(text)
    #expect(type == .integer)
    #expect(sql.hasPrefix(String(repeating: "(", count: 19_999) + "\"i\" + \"i\")"))
  }
}
