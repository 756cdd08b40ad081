import FlowNodes
import FlowRuntime
@testable import FlowSQL
import Testing

/// Every param is also an input, and `@name` in row formulas, exported: a constant upstream (a
/// `number` or `text` node, a param of the `@name`'s name) is written as a literal of the
/// dialect; a fed param takes the constant; anything else is refused naming every node and input
/// at once. (Subgraph inputs bound to constants: `ExportCommandTests`.)
@Suite struct SQLParameterInputExportTests {
  static let csv = "k,v,s\n1,2.5,a\n2,NA,b\n"
  static let reader = (id: "t", kind: "readCSV", params: #"{"path": "t.csv"}"#)

  func export(_ json: String, _ dialect: SQLDialect = .duckdb, nodes: [String] = []) throws -> String {
    try SQLTestSupport.export(json, dialect, nodes: nodes, files: ["t.csv": Self.csv])
  }

  func error(_ json: String) -> SQLExportError? {
    do {
      _ = try export(json)
      return nil
    } catch let error as SQLExportError { return error } catch { return SQLExportError(node: nil, "\(error)") }
  }

  @Test func aNumberNodeFeedingAnAtNameIsWrittenAsALiteral() throws {
    let json = SQLTestSupport.graph(
      [Self.reader, ("limit", "number", #"{"value": 1}"#), ("f", "filter", #"{"where": "k > @limit"}"#)],
      [("t", "f", "table"), ("limit", "f", "limit")])
    for dialect in SQLDialect.allCases {
      let script = try export(json, dialect, nodes: ["f"])
      #expect(script.contains("WHERE (\(dialect.quote("k")) > \(dialect.integerLiteral(1)))"), "\(dialect):\n\(script)")
      #expect(!script.contains("@") && !script.contains("limit"), "the number node is no relation: \(script)")
    }
  }

  @Test func aParamOfTheAtNamesNameSetsItWhenNothingIsConnected() throws {
    let json = SQLTestSupport.graph(
      [Self.reader, ("d", "derive", #"{"columns": {"w": "k * @factor", "label": "@tag"}, "factor": 3, "tag": "x"}"#)],
      [("t", "d", "table")])
    let script = try export(json, nodes: ["d"])
    #expect(script.contains(#"("k" * \#(SQLDialect.duckdb.integerLiteral(3))) AS "w""#), "\(script)")
    #expect(script.contains(#"'x' AS "label""#), "\(script)")
  }

  @Test func aTextNodeFeedsAParamInPlaceOfTheWrittenOne() throws {
    let json = SQLTestSupport.graph(
      [Self.reader, ("key", "text", #"{"value": "-v"}"#), ("s", "sort", #"{"by": ["k"]}"#)],
      [("t", "s", "table"), ("key", "s", "by")])
    // `by` is a list param: a string on its input does not fit, named like the runtime names it.
    #expect(error(json)?.description == "node 's': param 'by' must be of type list, found string on its input")
    let path = SQLTestSupport.graph(
      [Self.reader, ("file", "text", #"{"value": "fed.csv"}"#), ("w", "writeCSV", #"{"path": "written.csv"}"#)],
      [("t", "w", "table"), ("file", "w", "path")])
    let script = try export(path)
    #expect(script.contains("TO 'fed.csv'") && !script.contains("written.csv"), "the edge wins: \(script)")
  }

  @Test func everyNodeWhoseInputIsNotAConstantIsNamedAtOnce() {
    let json = SQLTestSupport.graph(
      [
        Self.reader, ("n", "rowCount", "{}"), ("f", "filter", #"{"where": "k < @n"}"#),
        ("g", "derive", #"{"columns": {"c": "@n + @m"}}"#)
      ],
      [("t", "n", "table"), ("t", "f", "table"), ("n", "f", "n"), ("t", "g", "table"), ("n", "g", "n")])
    guard let failure = error(json) else {
      Issue.record("exported @names fed by a rowCount")
      return
    }
    #expect(Set(failure.all.compactMap(\.node)) == ["n", "f", "g"])
    let lines = failure.description.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(
      lines.contains(
        "node 'f': input 'n' comes from 'n' (rowCount), which is not a constant; only a constant "
          + "(a number or text node, or a subgraph input set to one) exports, as a SQL literal"))
  }

  @Test func anAtNameNeitherConnectedNorSetIsRefusedNamingTheInput() {
    let json = SQLTestSupport.graph([Self.reader, ("f", "filter", #"{"where": "k > @limit"}"#)], [("t", "f", "table")])
    #expect(
      error(json)?.description
        == "node 'f': input 'limit' is not connected (connect it, or set param 'limit'), and '@limit' needs its value")
  }
}

/// A custom constant (``SQLConstantKind``): its value, from its params alone.
struct Threshold: StaticNodeKind, SQLConstantKind {
  var name: String { "threshold" }
  var summary: String { "the integer 2" }
  var inputs: [InputPort] { [] }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .integer)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = .integer(2) }
}

/// The same value from a kind that is not a constant.
struct NotConstant: StaticNodeKind {
  var name: String { "notConstant" }
  var summary: String { "the integer 2" }
  var inputs: [InputPort] { [] }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .integer)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = .integer(2) }
}

extension SQLParameterInputExportTests {
  @Test func aCustomKindAdoptingSQLConstantKindFeedsAnAtNameAsALiteral() throws {
    for kind in ["threshold", "notConstant"] {
      let json = SQLTestSupport.graph(
        [Self.reader, ("n", kind, "{}"), ("f", "filter", #"{"where": "k > @n"}"#)],
        [("t", "f", "table"), ("n", "f", "n")])
      let exported = Result {
        try SQLTestSupport.export(json, nodes: ["f"], files: ["t.csv": Self.csv], extra: [Threshold(), NotConstant()])
      }
      if kind == "threshold" {
        let script = try exported.get()
        #expect(
          script.contains(#"WHERE ("k" > \#(SQLDialect.duckdb.integerLiteral(2)))"#) && !script.contains("@"),
          "\(script)")
      } else {
        #expect((try? exported.get()) == nil, "a kind that is not a constant is refused")
      }
    }
  }
}
