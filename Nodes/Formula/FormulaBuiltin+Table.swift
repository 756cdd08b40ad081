/// The function table of the formula languages (Reference.md, "Formulas"), in the order `flow help formulas`
/// lists them: numbers, strings, nulls and sets, then dates (`FormulaBuiltin+DateTable.swift`).
extension FormulaBuiltin {
  static let table: [FormulaBuiltin] = numericTable + stringTable + nullTable + dateTable

  /// The numeric functions, in both languages.
  static let numericTable: [FormulaBuiltin] = [
    .numeric(
      .sqrt, "square root", "sqrt(16) → 4",
      sql: FormulaSQL("sqrt($1)")),
    .numeric(
      .abs, "absolute value", "abs(-3.5) → 3.5",
      sql: FormulaSQL("abs($1)")),
    .numeric(
      .sign, "-1, 0 or 1 by the sign (keeps -0 and NaN)", "sign(-3) → -1",
      sql: FormulaSQL("sign($1)", ["spark": "signum($1)"])),
    .numeric(.min, "the smallest argument (NaN if any is NaN)", "min(4, 2, 8) → 2"),
    .numeric(.max, "the largest argument (NaN if any is NaN)", "max(4, 2, 8) → 8"),
    .numeric(.clamp, "x limited to lo…hi (hi when lo > hi)", "clamp(5, 0, 1) → 1"),
    .numeric(
      .floor, "rounds down", "floor(-1.5) → -2",
      sql: FormulaSQL("floor($1)", ["spark": "CAST(floor($1) AS DOUBLE)"])),
    .numeric(
      .ceil, "rounds up", "ceil(-1.5) → -1",
      sql: FormulaSQL("ceil($1)", ["spark": "CAST(ceil($1) AS DOUBLE)"])),
    .numeric(
      .trunc, "rounds toward zero", "trunc(-2.7) → -2",
      sql: FormulaSQL(
        "trunc($1)",
        [
          "trino": "truncate($1)",
          "spark": "CASE WHEN $1 < 0 THEN CAST(ceil($1) AS DOUBLE) ELSE CAST(floor($1) AS DOUBLE) END"
        ])),
    .numeric(
      .round, "rounds to `digits` decimals (default 0; negative: tens, hundreds…), halves away from zero",
      "round(2.675, 2) → 2.68"),
    .numeric(
      .sin, "sine (radians)", "sin(pi / 2) → 1",
      sql: FormulaSQL("sin($1)")),
    .numeric(
      .cos, "cosine (radians)", "cos(0) → 1",
      sql: FormulaSQL("cos($1)")),
    .numeric(
      .tan, "tangent (radians)", "tan(pi / 4) → 1",
      sql: FormulaSQL("tan($1)")),
    .numeric(
      .asin, "arc sine, in radians", "asin(1) → 1.5707963267948966",
      sql: FormulaSQL("asin($1)")),
    .numeric(
      .acos, "arc cosine, in radians", "acos(1) → 0",
      sql: FormulaSQL("acos($1)")),
    .numeric(
      .atan, "arc tangent, in radians", "atan(1) → 0.7853981633974483",
      sql: FormulaSQL("atan($1)")),
    .numeric(
      .atan2, "the angle of the point (x, y), in radians: atan2(y, x)", "atan2(1, 1) → 0.7853981633974483",
      sql: FormulaSQL("atan2($1, $2)")),
    .numeric(
      .hypot, "the length of the hypotenuse, sqrt(x^2 + y^2)", "hypot(3, 4) → 5",
      sql: FormulaSQL("sqrt($1 * $1 + $2 * $2)")),
    .numeric(
      .log, "natural logarithm", "log(e^3) → 3",
      sql: FormulaSQL("ln($1)")),
    .numeric(
      .ln, "natural logarithm (as log)", "ln(e^2) → 2",
      sql: FormulaSQL("ln($1)")),
    .numeric(
      .log10, "base-10 logarithm", "log10(1000) → 3",
      sql: FormulaSQL("log10($1)")),
    .numeric(
      .log2, "base-2 logarithm", "log2(8) → 3",
      sql: FormulaSQL("log2($1)", ["postgres": "(ln($1) / ln(2.0))"])),
    .numeric(
      .exp, "e to the power x", "exp(0) → 1",
      sql: FormulaSQL("exp($1)")),
    .numeric(
      .pow, "x to the power y (as x ^ y)", "pow(2, 10) → 1024",
      sql: FormulaSQL("pow($1, $2)", ["trino": "power($1, $2)", "postgres": "power($1, $2)"]))
  ]

  /// The string functions (row formulas); indexes count Unicode scalars from 1.
  static let stringTable: [FormulaBuiltin] = [
    .text(
      .len, [.string], .integer, "the number of Unicode scalars", "len(\"Zürich\") → 6",
      sql: FormulaSQL(
        "CAST(char_length($1) AS BIGINT)",
        ["duckdb": "CAST(length($1) AS BIGINT)", "trino": "CAST(length($1) AS BIGINT)"])),
    .text(
      .lower, [.string], .string, "lower case", "lower(\"AbC\") → \"abc\"",
      sql: FormulaSQL("lower($1)")),
    .text(
      .upper, [.string], .string, "upper case", "upper(\"AbC\") → \"ABC\"",
      sql: FormulaSQL("upper($1)")),
    .text(.trim, [.string], .string, "without leading and trailing whitespace", "trim(\" a b \") → \"a b\""),
    .text(
      .substr, [.string, .number, .number], .string,
      "count scalars (default: all) from position start (1-based, as in SQL)", "substr(\"N709JB\", 2, 3) → \"709\""),
    .text(
      .contains, [.string, .string], .bool, "whether t occurs in s", "contains(\"JFK\", \"F\") → true",
      sql: FormulaSQL("(strpos($1, $2) > 0)", ["duckdb": "contains($1, $2)", "spark": "(instr($1, $2) > 0)"])),
    .text(
      .startsWith, [.string, .string], .bool, "whether s starts with t", "startsWith(\"N709JB\", \"N7\") → true",
      sql: FormulaSQL("starts_with($1, $2)", ["spark": "startswith($1, $2)"])),
    .text(
      .endsWith, [.string, .string], .bool, "whether s ends with t", "endsWith(\"N709JB\", \"JB\") → true",
      sql: FormulaSQL(
        "starts_with(reverse($1), reverse($2))", ["duckdb": "ends_with($1, $2)", "spark": "endswith($1, $2)"])),
    .text(
      .like, [.string, .string], .bool,
      "SQL LIKE, case-sensitive: % any run of characters, _ one Unicode scalar; \\% \\_ \\\\ literal",
      "like(\"N709JB\", \"N7%B\") → true"),
    .text(
      .replace, [.string, .string, .string], .string, "s with every occurrence of `from` replaced by `to`",
      "replace(\"a-b-c\", \"-\", \"/\") → \"a/b/c\"",
      sql: FormulaSQL("CASE WHEN $2 = '' THEN $1 ELSE replace($1, $2, $3) END")),
    .text(
      .concat, [.any], .string, "the texts joined (numbers as `string` writes them; any null → null)",
      "concat(\"UA\", 1545) → \"UA1545\""),
    .text(.string, [.any], .string, "the text `flow run` prints for the value", "string(2.50) → \"2.5\""),
    .text(
      .format, [.number, .string], .string,
      "x written with a number format of `format`: .2f  ,  ,.1f  .1%  .3e  d",
      "format(0.2613, \".1%\") → \"26.1%\""),
    .text(
      .number, [.string], .number, "the number the text spells (as `toNumber`); other text fails the node",
      "number(\" 1e3 \") → 1000")
  ]

  /// Nulls and sets (row formulas).
  static let nullTable: [FormulaBuiltin] = [
    FormulaBuiltin(
      name: "isNull", arity: .exactly(1), contexts: [.row], typing: .nullTest, operation: .isNull,
      summary: "whether the value is null (never null itself)", example: "isNull(null) → true"),
    FormulaBuiltin(
      name: "if", arity: .exactly(3), contexts: [.row], typing: .choice, operation: .choose,
      summary: "a when the condition is true, else b (also when it is null)",
      example: "if(2 > 1, \"yes\", \"no\") → \"yes\""),
    FormulaBuiltin(
      name: "coalesce", arity: .atLeast(1), contexts: [.row], typing: .common, operation: .coalesce,
      summary: "the first argument that is not null", example: "coalesce(null, 2) → 2"),
    FormulaBuiltin(
      name: "in", arity: .atLeast(2), contexts: [.row], typing: .membership, operation: .member,
      summary:
        "x in (a, b, …): whether x is one of the items (null when x is null, or no item matches and one is null)",
      example: "2 in (1, 2) → true")
  ]
}
