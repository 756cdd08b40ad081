// swift-format-ignore-file
// (Documentation/CustomKinds.md quotes this file's code as written, see Scripts/check-snippets.py,
// so it keeps its own line breaks.)
import FlowNodes
import FlowRuntime
@testable import FlowSQL
import Testing

/// What the exporter gives and refuses: errors naming the node and why, `--node` exporting only
/// what the chosen nodes need, custom kinds with a translation, the table semantics in SQL.
@Suite struct SQLExporterTests {
  static let csv = "k,v,s\n1,2.5,a\n2,NA,b\n"
  static let reader = (id: "t", kind: "readCSV", params: #"{"path": "t.csv"}"#)

  func error(_ json: String, nodes: [String] = [], extra: [any NodeKind] = []) -> SQLExportError? {
    do {
      _ = try SQLTestSupport.export(json, nodes: nodes, files: ["t.csv": Self.csv], extra: extra)
      return nil
    } catch let error as SQLExportError { return error } catch { return SQLExportError(node: nil, "\(error)") }
  }

  @Test func liveNodesAreRefusedByName() {
    let json = SQLTestSupport.graph([("tick", "clock", #"{"interval": 1}"#)], [])
    let failure = error(json)
    #expect(failure?.node == "tick")
    #expect(failure?.reason.contains("live") == true)
  }

  @Test func scalarKindsAreRefusedByName() {
    let json = SQLTestSupport.graph([Self.reader, ("n", "rowCount", "{}")], [("t", "n", "table")])
    #expect(failure(json)?.description == "node 'n': rowCount gives a scalar or a list, not a table; only table kinds export (choose table sinks with --node)")
  }

  func failure(_ json: String) -> SQLExportError? { error(json) }

  @Test func chosenNodesExportOnlyWhatTheyNeed() throws {
    let json = SQLTestSupport.graph(
      [Self.reader, ("kept", "filter", #"{"where": "k > 1"}"#), ("save", "writeCSV", #"{"path": "out.csv"}"#),
       ("n", "rowCount", "{}"), ("tick", "clock", #"{"interval": 1}"#)],
      [("t", "kept", "table"), ("kept", "save", "table"), ("t", "n", "table")])
    #expect(error(json)?.node == "n")
    let script = try SQLTestSupport.export(json, nodes: ["save"], files: ["t.csv": Self.csv])
    #expect(script.contains(#"CREATE OR REPLACE TEMP VIEW "kept" AS"#))
    #expect(script.contains(#"COPY (SELECT "k", "v", "s" FROM "kept" ORDER BY "__flow_row") TO 'out.csv'"#))
    #expect(!script.contains("tick") && !script.contains("\"n\""))
  }

  @Test func aChosenTableNodeEndsInASelect() throws {
    let json = SQLTestSupport.graph([Self.reader, ("s", "sort", #"{"by": ["-v"]}"#)], [("t", "s", "table")])
    let script = try SQLTestSupport.export(json, .postgres, nodes: ["s"], files: ["t.csv": Self.csv])
    #expect(script.hasSuffix("SELECT \"k\", \"v\", \"s\" FROM \"s\" ORDER BY \"__flow_row\";\n"))
    #expect(script.contains(#"CASE WHEN "v" IN ('NA', 'N/A', 'NaN', 'null') THEN NULL ELSE "v" END"#))
  }

  @Test func aMissingColumnNamesNodeAndColumn() {
    let json = SQLTestSupport.graph([Self.reader, ("pick", "select", #"{"columns": ["k", "nope"]}"#)], [("t", "pick", "table")])
    #expect(error(json)?.description == "node 'pick': no column 'nope' in the table (columns: k, v, s)")
  }

  @Test func aFormulaErrorNamesNodeAndParam() {
    let json = SQLTestSupport.graph([Self.reader, ("f", "filter", #"{"where": "s < 1"}"#)], [("t", "f", "table")])
    #expect(error(json)?.description == "node 'f': param 'where': cannot compare string with integer using '<'")
    let notBool = SQLTestSupport.graph([Self.reader, ("f", "filter", #"{"where": "k + 1"}"#)], [("t", "f", "table")])
    #expect(error(notBool)?.reason.contains("not a bool") == true)
  }

  @Test func anUnreadableSourceIsNamed() {
    let json = SQLTestSupport.graph([("gone", "readCSV", #"{"path": "missing.csv"}"#)], [])
    let failure = error(json)
    #expect(failure?.node == "gone")
    #expect(failure?.reason.contains("cannot read the file") == true)
  }

  @Test func aReaderOutsideTheAllowedFoldersIsRefused() {
    let json = SQLTestSupport.graph([("escape", "readCSV", #"{"path": "../../etc/passwd"}"#)], [])
    #expect(error(json)?.reason.contains("path outside the allowed folders") == true)
  }

  @Test func columnsNamedLikeTheRowNumbersAreRefused() {
    let json = SQLTestSupport.graph([Self.reader, ("d", "derive", #"{"columns": {"__flow_row": "1"}}"#)], [("t", "d", "table")])
    #expect(error(json)?.description == "node 'd': the column '__flow_row' has a name the export reserves (names starting with __flow_ carry row numbers)")
  }

  @Test func unionTypeClashNamesTheColumn() {
    let json = SQLTestSupport.graph(
      [Self.reader, ("r", "derive", #"{"columns": {"k": "\"x\""}}"#), ("u", "union", "{}")],
      [("t", "r", "table"), ("t", "u", "a"), ("r", "u", "b")])
    #expect(error(json)?.description == "node 'u': column 'k' is integer in a but string in b")
  }

  @Test func joinAddsTheRightSuffixAndOrdersRowsExplicitly() throws {
    let json = SQLTestSupport.graph([Self.reader, ("j", "join", #"{"on": ["k"], "how": "full"}"#)], [("t", "j", "left"), ("t", "j", "right")])
    let script = try SQLTestSupport.export(json, files: ["t.csv": Self.csv])
    #expect(script.contains(#"coalesce("l"."k", "r"."k") AS "k""#))
    #expect(script.contains(#""r"."v" AS "v_right", "r"."s" AS "s_right""#))
    #expect(script.contains(#"ORDER BY CASE WHEN "l"."__flow_row" IS NULL THEN 1 ELSE 0 END, "l"."__flow_row", "r"."__flow_row""#))
  }

  @Test func deriveUsingAnEarlierEntryGetsAHelperRelation() throws {
    let json = SQLTestSupport.graph([Self.reader, ("d", "derive", #"{"columns": {"a": "k * 2", "b": "a + 1", "k": "0"}}"#)], [("t", "d", "table")])
    let script = try SQLTestSupport.export(json, files: ["t.csv": Self.csv])
    #expect(script.contains(#"CREATE OR REPLACE TEMP VIEW "d~1" AS"#))
    #expect(script.contains(#"SELECT "__flow_row", 0::BIGINT AS "k", "v", "s", "a", ("a" + 1::BIGINT) AS "b" FROM "d~1""#))
  }

  @Test func customKindsWithoutATranslationAreRefused() {
    let json = SQLTestSupport.graph([Self.reader, ("x", "double", "{}")], [("t", "x", "table")])
    #expect(error(json, extra: [Untranslated()])?.reason.contains("has no SQL translation") == true)
  }

  @Test func customKindsTranslateThemselves() throws {
    let json = SQLTestSupport.graph([Self.reader, ("x", "double", "{}"), ("save", "writeCSV", #"{"path": "o.csv"}"#)],
                                    [("t", "x", "table"), ("x", "save", "table")])
    let script = try SQLTestSupport.export(json, .spark, files: ["t.csv": Self.csv], extra: [Doubling()])
    #expect(script.contains("CREATE OR REPLACE TEMPORARY VIEW `x` AS\n  SELECT `__flow_row`, `k` * 2 AS `k` FROM `t`;"))
    #expect(script.contains("SELECT `k` FROM `x` ORDER BY `__flow_row`"))
  }

  @Test func aLongChainExportsEveryNodeOnce() throws {
    var nodes = [Self.reader]
    var edges: [(String, String, String)] = []
    for index in 0..<2_000 {
      nodes.append(("f\(index)", "filter", #"{"where": "k > \#(index)"}"#))
      edges.append((index == 0 ? "t" : "f\(index - 1)", "f\(index)", "table"))
    }
    let script = try SQLTestSupport.export(SQLTestSupport.graph(nodes, edges), files: ["t.csv": Self.csv])
    #expect(script.components(separatedBy: "CREATE OR REPLACE TEMP VIEW").count == 2_002)
    #expect(script.hasSuffix("SELECT \"k\", \"v\", \"s\" FROM \"f1999\" ORDER BY \"__flow_row\";\n"))
  }
}

/// A custom table kind without a SQL translation.
struct Untranslated: StaticNodeKind {
  var name: String { "double" }
  var summary: String { "k doubled" }
  var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
  var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
}

/// The same kind with a translation.
struct Doubling: StaticNodeKind, SQLTranslatable {
  var name: String { "double" }
  var summary: String { "k doubled" }
  var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
  var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { /* … */ }

  func sqlTranslation(_ request: SQLTranslationRequest) throws -> SQLTranslation {
    let k = request.quote("k")
    return SQLTranslation(
      select: "SELECT \(request.rowColumn), \(k) * 2 AS \(k) FROM \(request.inputs[0].relation)",
      columns: [("k", .integer)])
  }
}
