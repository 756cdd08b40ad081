import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Columns on demand: `ColumnDemand` gives each `readCSV` the columns its consumers read, as
/// its `columns` param; an edit that changes a consumer's needs changes that param, so the
/// reader reruns (and only then), and the output is right.
@Suite struct ColumnDemandTests {
  static let csv = "id,name,mass,year,note\n1,a,3.5,2001,x\n2,b,4.5,2002,y\n3,c,5.5,2003,z\n"

  static func columns(_ document: FlowDocument, _ id: String) -> [String]? {
    document.nodes.first { $0.id == id }?.data.params["columns"]?.arrayValue?.compactMap(\.stringValue)
  }

  static func applied(_ document: FlowDocument, observed: ColumnDemand.Observed = .sinks) -> FlowDocument {
    ColumnDemand.applied(to: document, registry: .standard, observed: observed)
  }

  /// The kinds' roles the engine asks without a cast (`asStaticKind`, `asColumnProjectingKind`)
  /// are the casts' answers, for every standard kind.
  @Test func rolesAnsweredWithoutACastAreTheCasts() {
    let kinds = NodeKindRegistry.standard.allKinds
    #expect(kinds.count > 30)
    for kind in kinds {
      #expect((kind.asStaticKind != nil) == (kind is any StaticNodeKind), "\(kind.name)")
      #expect((kind.asColumnProjectingKind != nil) == (kind is any ColumnProjectingKind), "\(kind.name)")
    }
    #expect(kinds.contains { $0.asColumnProjectingKind != nil } && kinds.contains { $0.asStaticKind != nil })
  }

  @Test func eachReaderGetsWhatItsConsumersRead() {
    let document = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "data.csv"]),
        .node("heavy", "filter", params: ["where": "mass > 4"]),
        .node("more", "derive", params: ["columns": ["double": "mass * 2", "tripled": "double + year"]]),
        .node("groups", "groupBy", params: ["by": ["name"], "aggregate": ["n": "count()", "t": "sum(tripled)"]]),
        .node("sorted", "sort", params: ["by": ["-n"]]),
        .node("save", "writeCSV", params: ["path": "out.csv"])
      ],
      edges: [
        .edge("e1", "read", "heavy"), .edge("e2", "heavy", "more"), .edge("e3", "more", "groups"),
        .edge("e4", "groups", "sorted"), .edge("e5", "sorted", "save")
      ])
    #expect(Self.columns(Self.applied(document), "read") == ["mass", "name", "year"])
    // Observed tables are whole; observing everything projects nothing.
    #expect(Self.columns(Self.applied(document, observed: .nodes(["heavy"])), "read") == nil)
    #expect(Self.columns(Self.applied(document, observed: .everything), "read") == nil)
    // A reader feeding a writer directly is whole.
    let plain = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "data.csv"]),
        .node("save", "writeCSV", params: ["path": "out.csv"])
      ],
      edges: [.edge("e1", "read", "save")])
    #expect(Self.columns(Self.applied(plain), "read") == nil)
    // A user's own projection stands.
    var own = document
    own.nodes[0].data.params["columns"] = .array(["id"])
    #expect(Self.columns(Self.applied(own), "read") == ["id"])
  }

  @Test func joinsAskBothSidesAndRowCountNeedsNoColumn() {
    let document = FlowDocument(
      nodes: [
        .node("left", "readCSV", params: ["path": "l.csv"]), .node("right", "readCSV", params: ["path": "r.csv"]),
        .node("both", "join", params: ["on": ["id"]]),
        .node("pick", "select", params: ["columns": ["name", "mass_right as m"]]),
        .node("save", "writeCSV", params: ["path": "out.csv"]),
        .node("counted", "readCSV", params: ["path": "c.csv"]), .node("count", "rowCount")
      ],
      edges: [
        .edge("e1", "left", "both.left"), .edge("e2", "right", "both.right"),
        .edge("e3", "both", "pick"), .edge("e4", "pick", "save"), .edge("e5", "counted", "count")
      ])
    let applied = Self.applied(document)
    #expect(Self.columns(applied, "left") == ["id", "mass", "mass_right", "name"])
    #expect(Self.columns(applied, "right") == ["id", "mass", "mass_right", "name"])
    #expect(Self.columns(applied, "counted") == [])
  }

  @Test func editingASelectToNeedAnotherColumnRerunsTheReaderAndTheOutputIsRight() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(Self.csv.utf8).write(to: URL(fileURLWithPath: folder + "/data.csv"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    let original = FlowDocument(
      nodes: [
        .node("read", "readCSV", params: ["path": "data.csv"]),
        .node("pick", "select", params: ["columns": ["name"]]),
        .node("sorted", "sort", params: ["by": ["name"]]),
        .node("save", "writeCSV", params: ["path": "out.csv"])
      ],
      edges: [.edge("e1", "read", "pick"), .edge("e2", "pick", "sorted"), .edge("e3", "sorted", "save")])
    var current = Self.applied(original)
    #expect(Self.columns(current, "read") == ["name"])
    var evaluator = try GraphEvaluator(validating: current, registry: registry)
    #expect(evaluator.evaluate().ran == ["read", "pick", "sorted", "save"])
    #expect(evaluator.value(of: "read", port: "table")?.tableValue?.columnNames == ["name"])
    #expect(try String(contentsOfFile: folder + "/out.csv", encoding: .utf8) == "name\na\nb\nc\n")

    // The select now needs `mass` too: the reader's params change, it reruns, the output has it.
    func edit(_ id: String, _ params: JSONObject) -> EvaluationReport {
      var edited = current
      edited.nodes[edited.nodes.firstIndex { $0.id == id }!].data.params = params
      // The user's document never holds the projection: re-derive it from the edited original.
      edited.nodes[0].data.params["columns"] = nil
      let next = Self.applied(edited)
      for node in ColumnDemand.changedNodes(from: current, to: next) { evaluator.replaceNode(node) }
      current = next
      return evaluator.evaluate()
    }
    let widened = edit("pick", ["columns": ["name", "mass"]])
    #expect(widened.ran == ["read", "pick", "sorted", "save"])
    #expect(Self.columns(current, "read") == ["mass", "name"])
    #expect(try String(contentsOfFile: folder + "/out.csv", encoding: .utf8) == "name,mass\na,3.5\nb,4.5\nc,5.5\n")

    // Sorting by a column already read changes no need: the reader does not rerun.
    let resorted = edit("sorted", ["by": ["-mass"]])
    #expect(resorted.ran == ["sorted", "save"])
    #expect(try String(contentsOfFile: folder + "/out.csv", encoding: .utf8) == "name,mass\nc,5.5\nb,4.5\na,3.5\n")

    // The result equals the same pipeline over the whole table.
    var whole = try GraphEvaluator(validating: current.removingProjection(), registry: registry)
    whole.evaluate()
    #expect(whole.value(of: "sorted", port: "table") == evaluator.value(of: "sorted", port: "table"))
  }
}

extension FlowDocument {
  /// The document with every reader's `columns` param removed.
  fileprivate func removingProjection() -> FlowDocument {
    var copy = self
    for index in copy.nodes.indices where copy.nodes[index].data.kind == "readCSV" {
      copy.nodes[index].data.params["columns"] = nil
    }
    return copy
  }
}
