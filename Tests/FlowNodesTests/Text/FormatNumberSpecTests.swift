import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `format` placeholders with number formats (Reference.md, "Formulas").
@Suite struct FormatNumberSpecTests {
  private func format(_ template: String, _ value: Value) throws -> String {
    guard case .string(let text) = try KindHarness.run("format", ["template": .string(template)], [value])[0] else {
      throw NodeError("format gave no string")
    }
    return text
  }

  @Test(
    arguments: [
      // Halves away from zero on the exact binary value: 0.125 and -0.375 are exact halves…
      (0.125, "{x:.2f}", "0.13"), (-0.375, "{x:.2f}", "-0.38"), (2.5, "{x:.0f}", "3"), (-2.5, "{x:.0f}", "-3"),
      (0.5, "{x:.0f}", "1"), (99.5, "{x:.0f}", "100"), (-9.5, "{x:.0f}", "-10"), (0.0625, "{x:.3f}", "0.063"),
      // …2.675, 1.005 and 9.995 are not (their doubles lie just below), so they round down, as
      // Python's Decimal(x) with ROUND_HALF_UP does.
      (2.675, "{x:.2f}", "2.67"), (1.005, "{x:.2f}", "1.00"), (9.995, "{x:.2f}", "9.99"),
      (4201.754385964912, "{x:.2f}", "4201.75"), (0.0, "{x:.2f}", "0.00"), (-0.001, "{x:.2f}", "-0.00"),
      (1.5, "{x:f}", "1.500000"), (1234567.891, "{x:,.1f}", "1,234,567.9"), (-1234567.5, "{x:,.1f}", "-1,234,567.5"),
      (999.95, "{x:,.1f}", "1,000.0"), (999999.5, "{x:,.0f}", "1,000,000"),
      (1e20, "{x:,.0f}", "100,000,000,000,000,000,000"),
      (1234.5, "{x:,}", "1,234.5"), (-1234567.0, "{x:,}", "-1,234,567"), (12.0, "{x:,}", "12"),
      (0.48830409356725146, "{x:.1%}", "48.8%"), (0.125, "{x:.1%}", "12.5%"), (0.00125, "{x:.2%}", "0.13%"),
      (-0.5, "{x:%}", "-50.000000%"), (123.456, "{x:,.0%}", "12,346%"),
      (4201.754385964912, "{x:.3e}", "4.202e+03"), (-0.000123456, "{x:.2e}", "-1.23e-04"),
      (1e300, "{x:.3e}", "1.000e+300"),
      (9.9999, "{x:.2e}", "1.00e+01"), (0.0, "{x:.2e}", "0.00e+00"), (12500.0, "{x:.1e}", "1.3e+04"),
      (-0.25, "{x:.0e}", "-3e-01"),
      (1.5, "{x:e}", "1.500000e+00"), (42.0, "{x:d}", "42"), (-0.0, "{x:d}", "0"),
      (1e20, "{x:,d}", "100,000,000,000,000,000,000")
    ] as [(Double, String, String)])
  func numbersFollowTheirFormat(value: Double, template: String, expected: String) throws {
    #expect(try format(template, .number(value)) == expected)
  }

  @Test(
    arguments: [
      (Int64.max, "{x:,}", "9,223,372,036,854,775,807"), (Int64.min, "{x:,}", "-9,223,372,036,854,775,808"),
      (Int64.max, "{x:d}", "9223372036854775807"), (Int64.max, "{x:.2f}", "9223372036854775807.00"),
      (Int64.max, "{x:.3e}", "9.223e+18"), (9_999_500, "{x:.3e}", "1.000e+07"), (12_500, "{x:.1e}", "1.3e+04"),
      (0, "{x:.2e}", "0.00e+00"), (-5, "{x:.1%}", "-500.0%"), (0, "{x:%}", "0.000000%"),
      (1_437_000, "{x:,}", "1,437,000"),
      (-42, "{x:,.2f}", "-42.00"), (7, "{x:.0e}", "7e+00"), (-95, "{x:.0e}", "-1e+02"), (123, "{x:,}", "123")
    ] as [(Int64, String, String)])
  func integersAreFormattedExactly(value: Int64, template: String, expected: String) throws {
    #expect(try format(template, .integer(value)) == expected)
  }

  @Test(
    arguments: [
      (Double.nan, "{x:.2f}", "nan"), (Double.infinity, "{x:,.1f}", "inf"), (-Double.infinity, "{x:.3e}", "-inf"),
      (Double.infinity, "{x:.1%}", "inf%"), (Double.nan, "{x:,}", "nan")
    ] as [(Double, String, String)])
  func nonFiniteNumbersAreWrittenAsInPlainPlaceholders(value: Double, template: String, expected: String) throws {
    #expect(try format(template, .number(value)) == expected)
  }

  @Test(arguments: [
    (Value.number(2.5), "{x:d}", "placeholder '{x:d}' needs a whole number, got 2.5"),
    (Value.number(.nan), "{x:d}", "placeholder '{x:d}' needs a whole number, got nan"),
    (Value.number(.infinity), "{x:,d}", "placeholder '{x:,d}' needs a whole number, got inf"),
    (Value.string("12"), "{x:.2f}", "placeholder '{x:.2f}' formats numbers, but its input is string"),
    (Value.null, "{x:,}", "placeholder '{x:,}' formats numbers, but its input is null"),
    (Value.bool(true), "{x:.1%}", "placeholder '{x:.1%}' formats numbers, but its input is bool")
  ])
  func aFormatThatDoesNotFitItsValueFailsTheNodeNamingThePlaceholder(value: Value, template: String, message: String) {
    #expect(KindHarness.failure { try format("total: " + template, value) } == message)
  }

  @Test func placeholdersOfOneNameShareOneInputWhateverTheirFormats() throws {
    let template = "{m:.2f} ({m:,.1f}; {m:.3e}; {m}) {n:d} {m:.1%}"
    guard
      case .success(let node) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "format", params: ["template": .string(template)]))
    else {
      Issue.record("format did not configure")
      return
    }
    #expect(node.instance.inputs.map(\.name) == ["m", "n"])
    let text = try KindHarness.run(
      "format", ["template": .string(template)], [.number(4201.754385964912), .integer(342)])
    #expect(text == [.string("4201.75 (4,201.8; 4.202e+03; 4201.754385964912) 342 420175.4%")])
    // A plain placeholder is unchanged, and an empty format is no format.
    #expect(try format("{x} {x:}", .string("a:b")) == "a:b a:b")
  }

  @Test(arguments: [
    "{x:.2g}", "{x:.2}", "{x:.f}", "{x:.101f}", "{x:.2d}", "{x:2f}", "{x:,,}", "{x:.2fx}", "{x:s}", "{:d}"
  ])
  func anUnknownFormatIsAConfigurationErrorNamingThePlaceholder(template: String) {
    guard
      case .failure(.invalidParameters(let problems)) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "format", params: ["template": .string(template)]))
    else {
      Issue.record("expected a configuration error for \(template)")
      return
    }
    #expect(problems.map(\.parameter) == ["template"])
    if template != "{:d}" { #expect(problems.first?.reason.contains("placeholder '\(template)'") == true) }
  }

  /// `.Nf` against integer arithmetic over random dyadic numbers x = k / 2^m (exactly
  /// k·5^m / 10^m in decimal), many of them exact halves at N decimals.
  @Test(arguments: 0..<20)
  func fixedDecimalsMatchExactHalfAwayRounding(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 0x9E37_79B9 &+ 3)
    for _ in 0..<200 {
      let m = Int.random(in: 0...10, using: &random)
      let k = Int64.random(in: -(1 << 24)...(1 << 24), using: &random)  // |k|·10^decimals fits UInt64
      let decimals = Int.random(in: 0...10, using: &random)
      let x = Double(k) / Double(1 << m)
      #expect(
        try format("{x:.\(decimals)f}", .number(x)) == Self.reference(k, m, decimals),
        "\(k) / 2^\(m), \(decimals) decimals")
    }
  }

  /// k / 2^m with `decimals` decimals, halves away from zero, by integer arithmetic.
  static func reference(_ k: Int64, _ m: Int, _ decimals: Int) -> String {
    var scaled = k.magnitude  // |x| · 10^m
    for _ in 0..<m { scaled *= 5 }
    var digits: UInt64
    if decimals >= m {
      digits = scaled
      for _ in 0..<(decimals - m) { digits *= 10 }
    } else {
      var divisor: UInt64 = 1
      for _ in 0..<(m - decimals) { divisor *= 10 }
      digits = scaled / divisor
      if 2 * (scaled % divisor) >= divisor { digits += 1 }
    }
    var text = String(digits)
    if text.count <= decimals { text = String(repeating: "0", count: decimals + 1 - text.count) + text }
    if decimals > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals)) }
    return (k < 0 ? "-" : "") + text
  }

  @Test func formattedOutputIsCheckedAgainstTheStringLimit() {
    var environment = EvaluationEnvironment()
    environment.limits.maxStringBytes = 10
    let message = KindHarness.failure {
      try KindHarness.run("format", ["template": "{x:,.50f}"], [.number(1)], environment: environment)
    }
    #expect(message?.contains("format output") == true)
  }
}
