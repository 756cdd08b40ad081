import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Columns on demand through `window`, `pivot` and `unpivot`: each reader gets the columns the
/// kind reads plus, for `window`, what its consumers read of the columns it passes through.
@Suite struct ReshapeColumnDemandTests {
  static func columns(after kind: String, _ params: JSONObject, then next: (String, JSONObject)? = nil) -> [String]? {
    var nodes: [FlowNode] = [
      .node("read", "readCSV", params: ["path": "data.csv"]), .node("shape", kind, params: params)
    ]
    var edges: [FlowEdge] = [.edge("e1", "read", "shape")]
    if let next {
      nodes.append(.node("next", next.0, params: next.1))
      edges.append(.edge("e2", "shape", "next"))
      nodes.append(.node("save", "writeCSV", params: ["path": "out.csv"]))
      edges.append(.edge("e3", "next", "save"))
    } else {
      nodes.append(.node("save", "writeCSV", params: ["path": "out.csv"]))
      edges.append(.edge("e2", "shape", "save"))
    }
    let applied = ColumnDemand.applied(
      to: FlowDocument(nodes: nodes, edges: edges), registry: .standard, observed: .sinks)
    return applied.nodes.first { $0.id == "read" }?.data.params["columns"]?.arrayValue?.compactMap(\.stringValue)
  }

  @Test func windowReadsItsKeysItsColumnsAndWhatItsConsumersRead() {
    let params: JSONObject = [
      "partitionBy": ["carrier"], "orderBy": ["-time"],
      "columns": ["previous": "lag(delay)", "running": "cumsum(previous)", "n": "count()"]
    ]
    #expect(
      Self.columns(after: "window", params, then: ("select", ["columns": ["origin", "running", "n"]]))
        == ["carrier", "delay", "origin", "time"])
    #expect(Self.columns(after: "window", ["columns": ["r": "bogus(x)"]], then: ("select", ["columns": ["r"]])) == nil)
  }

  @Test func pivotReadsItsThreeParamsAndUnpivotItsListedColumns() {
    #expect(Self.columns(after: "pivot", ["index": ["a"], "columns": "b", "values": "c"]) == ["a", "b", "c"])
    #expect(Self.columns(after: "unpivot", ["keep": ["a"], "columns": ["x", "y"]]) == ["a", "x", "y"])
    #expect(Self.columns(after: "unpivot", ["keep": ["a"]]) == nil)
  }
}
