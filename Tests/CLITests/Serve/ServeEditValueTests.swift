import FlowGraph
import Testing
@testable import FlowCommandLine

/// What the page's fields turn into before the store validates them.
@Suite struct ServeEditValueTests {
  func value(_ sent: JSONValue, _ type: PortType, input: Bool = false) -> JSONValue?? {
    switch ServeSession.value(sent, for: ServeEditable.Field(name: "p", type: type, isInput: input)) {
    case .success(let value): value
    case .failure: nil
    }
  }

  func reason(_ sent: JSONValue, _ type: PortType) -> String? {
    if case .failure(let problem) = ServeSession.value(
      sent, for: ServeEditable.Field(name: "p", type: type, isInput: false))
    {
      return problem.text
    }
    return nil
  }

  @Test func numbersStayExactIntegersWhereWrittenSo() {
    #expect(value(" 2.5 ", .number) == .some(.number(2.5)))
    #expect(value("9223372036854775807", .number) == .some(.integer(9_223_372_036_854_775_807)))
    #expect(value("7", .integer) == .some(.integer(7)))
    #expect(value("1e3", .number) == .some(.number(1_000)))
    #expect(reason("3.5", .integer) == "expects a whole number, got '3.5'")
    #expect(reason("twelve", .number) == "expects a number, got 'twelve'")
    #expect(reason("\"12\"", .number) == "expects a number, got '\"12\"'")
    #expect(reason("", .number) == "expects a number, got nothing")
  }

  @Test func anEmptyInputFieldClearsItsParam() {
    #expect(value("", .number, input: true) == .some(nil))
    #expect(value("  ", .integer, input: true) == .some(nil))
  }

  @Test func boolsAndTextsAreTakenAsTheyCome() {
    #expect(value(true, .bool) == .some(.bool(true)))
    #expect(value("false", .bool) == .some(.bool(false)))
    #expect(reason("maybe", .bool) == "expects true or false")
    #expect(value("round(x) / 2", .string) == .some(.string("round(x) / 2")))
    #expect(value("", .string) == .some(.string("")))
    #expect(reason(3, .string) == "expects a text")
  }

  @Test func listsAndRecordsAreJSONWithTheirKeysInTheOrderWritten() throws {
    let columns = try #require(value(#"{"z": "x * 10", "a": "z + 1"}"#, .record) ?? nil)
    #expect(columns.objectValue?.members.map(\.key) == ["z", "a"], "a record's order is meaning")
    #expect(ServeEditable.text(columns) == #"{"z":"x * 10","a":"z + 1"}"#, "shown in the order written")
    #expect(value(#"["species", "island"]"#, .list) == .some(.array(["species", "island"])))
    #expect(value(.array([1, 2]), .list) == .some(.array([1, 2])), "JSON from a script")
    #expect(reason(#"{"a": 1}"#, .list) == #"expects a JSON list, such as ["a", "b"]"#)
    #expect(reason("[1, 2", .list) == #"expects a JSON list, such as ["a", "b"]"#)
    #expect(reason("[]", .record) == #"expects a JSON object, such as {"name": "formula"}"#)
    #expect(value(" ", .list, input: true) == .some(nil))
  }

  @Test func onlyNumberAndBoolEditsKeepThePicture() {
    let old = NodeSpec(kind: "number", params: ["value": 1])
    #expect(ServeSession.changesOnlyScalars(old, NodeSpec(kind: "number", params: ["value": 2.5])))
    #expect(!ServeSession.changesOnlyScalars(old, NodeSpec(kind: "number", params: ["value": "x"])))
    #expect(!ServeSession.changesOnlyScalars(old, NodeSpec(kind: "number", params: ["value": 1, "b": 2])))
    let formula = NodeSpec(kind: "expression", params: ["formula": "a + b"])
    #expect(!ServeSession.changesOnlyScalars(formula, NodeSpec(kind: "expression", params: ["formula": "a + c"])))
  }
}
