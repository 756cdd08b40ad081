import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// `flowRuntime.subgraphs` and `flowRuntime.imports` read and written (Reference.md, "Documents" and "Subgraphs").
@Suite struct SubgraphFormatTests {
  @Test func definitionsAndImportsRoundTrip() throws {
    var document = SubgraphFixtures.document(
      [.node("disc", "circle", params: ["r": 2])], subgraphs: ["circle": SubgraphFixtures.circle])
    document.imports = ["lib/shapes.flow.json"]
    let text = document.jsonString()
    let read = try FlowDocument(jsonBytes: Array(text.utf8))
    #expect(read.subgraphs == document.subgraphs)
    #expect(read.imports == ["lib/shapes.flow.json"])
    #expect(read.jsonString() == text, "written again byte for byte")
  }

  @Test func instancesAreOrdinaryNodesInTheJSON() throws {
    let document = SubgraphFixtures.document(
      [.node("disc", "circle", params: ["r": 2])], subgraphs: ["circle": SubgraphFixtures.circle])
    let json = document.jsonValue()
    // What SwiftFlow sees: a node whose data has a kind; the definitions sit under flowRuntime.
    let node = json.objectValue?["nodes"]?.arrayValue?.first?.objectValue
    #expect(node?["data"]?.objectValue?["kind"] == .string("circle"))
    #expect(
      json.objectValue?["flowRuntime"]?.objectValue?["subgraphs"]?.objectValue?["circle"]?.objectValue?["summary"]
        == .string("area of a circle"))
  }

  @Test func aMalformedDefinitionIsNamed() {
    let text =
      #"{"nodes": [], "edges": [], "flowRuntime": {"subgraphs": {"loan": {"nodes": [{"id": "a"}]}}, "imports": [3]}}"#
    #expect(throws: DocumentLoadError.self) { try FlowDocument(jsonBytes: Array(text.utf8)) }
    do { _ = try FlowDocument(jsonBytes: Array(text.utf8)) } catch {
      #expect(error.description.contains("subgraph 'loan': node 'a' has no 'data'"), "\(error)")
      #expect(error.description.contains("imports[0]"), "\(error)")
    }
  }

  @Test func theStoreExportsTheDocumentAsWritten() throws {
    let document = SubgraphFixtures.document(
      [.node("five", "number", params: ["value": 5]), .node("half", "ratio", params: ["den": 2])],
      [.edge("t1", "five.value", "half.num")], subgraphs: ["ratio": SubgraphFixtures.ratio])
    let store = try FlowStore(catalog: NodeKindRegistry.standard, document: document)
    #expect(store.nodes.map(\.id).contains("half/q"), "the store holds the inlined graph")
    let exported = store.export()
    #expect(exported.nodes.map(\.id) == ["five", "half"])
    #expect(exported.edges == document.edges)
    #expect(exported.subgraphs == document.subgraphs)
    #expect(exported.nodes[1].data == document.nodes[1].data)
  }
}
