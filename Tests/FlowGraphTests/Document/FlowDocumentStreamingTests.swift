import Testing

import FlowGraph
import FlowTestSupport

/// `FlowDocument(jsonBytes:)` decodes nodes and edges while parsing (the tree is never held
/// whole); it must read every document exactly as `FlowDocument(json:)` reads the parsed tree.
@Suite struct FlowDocumentStreamingTests {
  /// How a document loads: the document, or the error.
  static func outcome(_ bytes: [UInt8]) -> Result<FlowDocument, DocumentLoadError> {
    do { return .success(try FlowDocument(jsonBytes: bytes)) } catch { return .failure(error) }
  }

  /// How the same bytes load through the whole tree.
  static func treeOutcome(_ bytes: [UInt8]) -> Result<FlowDocument, DocumentLoadError> {
    let json: JSONValue
    do { json = try JSONValue.parse(bytes) } catch { return .failure(.syntax(error)) }
    do { return .success(try FlowDocument(json: json)) } catch { return .failure(.invalid(error)) }
  }

  static let pieces = [
    #"{"id": "a", "data": {"kind": "number", "params": {"value": 1}}, "position": [1, 2]}"#,
    #"{"id": "b", "data": {"kind": "add", "label": "sum", "note": "kept"}, "isSelected": true}"#,
    #"{"id": "c", "data": {"kind": "add"}, "zIndex": 1.5}"#,
    #"{"id": 7, "data": {"kind": "add"}}"#,
    #"{"id": "d"}"#,
    #"[1, 2]"#
  ]

  static let edgePieces = [
    #"{"id": "e1", "sourceNodeID": "a", "targetNodeID": "b", "targetHandleID": "a"}"#,
    #"{"id": "e2", "sourceNodeID": "a", "targetNodeID": "c", "pathType": "straight"}"#,
    #"{"id": "e3", "sourceNodeID": "a"}"#,
    #"{"id": "e4", "sourceNodeID": "b", "targetNodeID": "c", "pathType": "wavy"}"#
  ]

  /// A random document from valid and invalid pieces, with top-level keys in random order,
  /// sometimes repeated, sometimes of the wrong type, sometimes cut short.
  static func randomDocument(_ random: inout SeededRandom) -> String {
    func pick(_ list: [String], valid: Int) -> [String] {
      (0..<Int(random.next() % 5)).map { _ in
        let bound = random.next() % 6 == 0 ? list.count : valid
        return list[Int(random.next() % UInt64(bound))]
      }
    }
    var members = [
      #""nodes": [\#(pick(pieces, valid: 3).joined(separator: ", "))]"#,
      #""edges": [\#(pick(edgePieces, valid: 2).joined(separator: ", "))]"#,
      #""viewport": {"offset": [0, 0], "zoom": 1}"#,
      #""title": "extra key""#
    ]
    if random.next() % 5 == 0 { members.append(#""nodes": [\#(pick(pieces, valid: 3).joined(separator: ", "))]"#) }
    if random.next() % 8 == 0 { members.append(#""edges": 5"#) }
    if random.next() % 8 == 0 { members.append(#""flowRuntime": {"formatVersion": 99}"#) }
    if random.next() % 10 == 0 { members.removeFirst() }
    members.shuffle(using: &random)
    var text = "{" + members.joined(separator: ", ") + "}"
    if random.next() % 10 == 0 { text.removeLast(Int(random.next() % 20) + 1) }
    return text
  }

  @Test(arguments: 0..<400)
  func streamingDecodesLikeTheTree(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let bytes = Array(Self.randomDocument(&random).utf8)
    #expect(Self.outcome(bytes) == Self.treeOutcome(bytes), "\(String(decoding: bytes, as: UTF8.self))")
  }

  @Test func aRepeatedNodesKeyKeepsItsLastArray() throws {
    let text =
      #"{"nodes": [{"id": "old", "data": {"kind": "add"}}], "edges": [], "nodes": [{"id": "new", "data": {"kind": "add"}}]}"#
    let document = try FlowDocument(jsonBytes: Array(text.utf8))
    #expect(document.nodes.map(\.id) == ["new"])
  }

  @Test func aBadNodeIsReportedAsTheTreeReportsIt() {
    let text = #"{"nodes": [{"id": "a", "data": {"kind": "add"}}, {"data": {}}], "edges": [{"id": "e"}]}"#
    guard case .failure(.invalid(let error)) = Self.outcome(Array(text.utf8)) else {
      Issue.record("expected a shape problem")
      return
    }
    #expect(
      error.issues.map(\.message) == [
        "nodes[1] has no string 'id'", "edge 'e' has no string 'sourceNodeID'",
        "edge 'e' has no string 'targetNodeID'"
      ])
  }

  @Test func nodesAndEdgesKeepDocumentOrder() throws {
    let nodes = (0..<1_000).map { #"{"id": "n\#($0)", "data": {"kind": "add"}}"# }.joined(separator: ",")
    let edges = (1..<1_000).map { #"{"id": "e\#($0)", "sourceNodeID": "n\#($0 - 1)", "targetNodeID": "n\#($0)"}"# }
      .joined(separator: ",")
    let document = try FlowDocument(jsonBytes: Array(#"{"edges": [\#(edges)], "nodes": [\#(nodes)]}"#.utf8))
    #expect(document.nodes.map(\.id) == (0..<1_000).map { "n\($0)" })
    #expect(document.edges.map(\.targetNodeID) == (1..<1_000).map { "n\($0)" })
  }
}
