import FlowGraph
import FlowTestSupport
import Testing

/// The store's export writes each edge's keys as the document had them.
@Suite struct StoreExportKeyOrderTests {
  static let edges = [
    #"{"targetHandleID": "a", "sourceNodeID": "a", "targetNodeID": "b", "id": "e1", "sourceHandleID": "value"}"#,
    #"{"targetHandleID": "a", "sourceNodeID": "a", "x-edge": [1, {"k": 2}], "targetNodeID": "b", "id": "e1", "sourceHandleID": "value"}"#,
    #"{"targetHandleID": "a", "sourceNodeID": "a", "targetNodeID": "b", "sourceHandleID": "value"}"#,
    #""a.value -> b.a""#
  ]

  @Test(arguments: 0..<4) func anEdgesKeysKeepTheirOrder(_ index: Int) throws {
    let text = """
      {"nodes": [{"id": "a", "data": {"kind": "number", "params": {"value": 2}}}, {"id": "b", "data": {"kind": "add"}}], \
      "edges": [\(Self.edges[index])]}
      """
    let document = try FlowDocument(jsonText: text)
    let store = try FlowStore(catalog: TestCatalog(), document: document)
    #expect(store.export().jsonString() == document.jsonString())
  }

  @Test func aLoadedDocumentIsWrittenBackAsRead() throws {
    let text = """
      {"nodes": [{"id": "a", "data": {"kind": "number", "params": {"value": 2}}}, {"id": "b", "data": {"kind": "add"}}], \
      "edges": [\(Self.edges[1])]}
      """
    let document = try FlowDocument(jsonText: text)
    let store = try FlowStore(catalog: TestCatalog(), document: FlowDocument())
    try store.load(document)
    #expect(store.export().jsonString() == document.jsonString())
  }
}
