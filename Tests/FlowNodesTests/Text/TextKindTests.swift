import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

@Suite struct TextKindTests {
  @Test func textIsAConstant() throws {
    #expect(try KindHarness.run("text", ["value": "hi"]) == [.string("hi")])
    #expect(try KindHarness.run("text") == [.string("")])
  }

  @Test func formatFillsPlaceholdersInOrderOfFirstAppearance() throws {
    guard
      case .success(let node) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "format", params: ["template": "{b} and {a}, {b}! {{literal}}"]))
    else {
      Issue.record("format did not configure")
      return
    }
    #expect(node.instance.inputs.map(\.name) == ["b", "a"])
    let text = try KindHarness.run(
      "format", ["template": "{b} and {a}, {b}! {{literal}}"], [.number(2), .string("x y")])
    #expect(text == [.string("2 and x y, 2! {literal}")])
    #expect(
      try KindHarness.run("format", ["template": "{n}"], [.number(0.1 + 0.2)]) == [.string("0.30000000000000004")])
    #expect(try KindHarness.run("format", ["template": "{n}", "n": 3]) == [.string("3")])
  }

  @Test(arguments: ["{", "}", "{}", "a {b"])
  func badTemplatesAreConfigurationErrors(template: String) {
    guard
      case .failure(.invalidParameters(let problems)) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "format", params: ["template": .string(template)]))
    else {
      Issue.record("expected a configuration error for \(template)")
      return
    }
    #expect(problems.map(\.parameter) == ["template"])
  }

  @Test(arguments: [("42", 42.0), (" -1.5e3 ", -1500), ("+.5", 0.5), ("0007", 7)])
  func toNumberParsesDecimals(text: String, value: Double) throws {
    #expect(try KindHarness.run("toNumber", [:], [.string(text)]) == [.number(value)])
  }

  @Test(arguments: ["", "abc", "0x1F", "inf", "nan", "1 000", "1e"])
  func toNumberRejectsEverythingElseQuotingTheText(text: String) {
    #expect(
      KindHarness.failure { try KindHarness.run("toNumber", [:], [.string(text)]) } == "not a number: \"\(text)\"")
  }

  @Test(arguments: ["1e400", "-1e400", " 2e308 "])
  func toNumberFailsOnNumbersBeyondDoubleInsteadOfGivingInfinity(text: String) {
    // The node fails quoting the text (today "number out of range"; "not a number" if the
    // shared decimal parser comes to reject such text itself) and never outputs ±inf.
    let message = KindHarness.failure { try KindHarness.run("toNumber", [:], [.string(text)]) }
    #expect(message == "number out of range: \"\(text)\"" || message == "not a number: \"\(text)\"")
  }

  @Test func toNumberKeepsTheSignOfNegativeZero() throws {
    guard case .number(let value) = try KindHarness.run("toNumber", [:], [.string(" -0 ")])[0] else {
      Issue.record("toNumber gave no number")
      return
    }
    #expect(value == 0 && value.sign == .minus)
    guard case .number(let plain) = try KindHarness.run("toNumber", [:], [.string("0")])[0] else { return }
    #expect(plain.sign == .plus)
  }
}
