import Foundation
import Testing

import FlowGraph
import FlowTestSupport

/// `Tests/FlowGraphTests/Fixtures/<name>` (a copy of the contract's fixture, so the tests run in
/// a clone with nothing beside it).
private func fixture(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
  var url = URL(fileURLWithPath: filePath)
  for _ in 0..<2 { url.deleteLastPathComponent() }
  url.appendPathComponent("Fixtures/\(name)")
  return try Array(Data(contentsOf: url.standardizedFileURL))
}

private func load(_ text: String) throws -> FlowDocument { try FlowDocument(jsonText: text) }

/// `document` written as JSON and read back.
private func roundTripped(_ document: FlowDocument) throws -> FlowDocument {
  try FlowDocument(jsonText: document.jsonString())
}

/// Keys the writer adds to what it read: the ones it always writes (SwiftFlow requires them).
private enum AlwaysWritten {
  static let root: Set<String> = ["nodes", "edges", "viewport", "flowRuntime"]
  static let viewport: Set<String> = ["offset", "zoom"]
  static let node: Set<String> = [
    "position", "size", "phase", "persistence", "isSelected", "isDraggable",
    "acceptsChildren", "zIndex"
  ]
  static let data: Set<String> = ["params"]
  static let edge: Set<String> = ["pathType", "isSelected"]
}

/// Where `written` differs from `original` as JSON, ignoring member order and keys listed in
/// `AlwaysWritten` that `original` lacks; one line per difference, empty when they agree.
private func semanticDifferences(original: JSONValue, written: JSONValue) -> [String] {
  var differences: [String] = []
  // (path, original, written, keys the writer may add at this level)
  var pending: [(String, JSONValue, JSONValue, Set<String>)] = [("$", original, written, AlwaysWritten.root)]
  while let (path, a, b, addable) = pending.popLast() {
    switch (a, b) {
    case (.object(let left), .object(let right)):
      for key in Set(left.keys).union(right.keys) {
        switch (left[key], right[key]) {
        case (let l?, let r?):
          let next: Set<String> =
            if path == "$" && key == "viewport" {
              AlwaysWritten.viewport
            } else if path.hasPrefix("$.nodes[") && key == "data" { AlwaysWritten.data } else { [] }
          pending.append(("\(path).\(key)", l, r, next))
        case (_?, nil): differences.append("\(path).\(key) was dropped")
        case (nil, _?) where addable.contains(key): break
        case (nil, _?): differences.append("\(path).\(key) was added")
        case (nil, nil): break
        }
      }
    case (.array(let left), .array(let right)):
      guard left.count == right.count else {
        differences.append("\(path) has \(right.count) elements instead of \(left.count)"); continue
      }
      let elementKeys: Set<String> =
        switch path {
        case "$.nodes": AlwaysWritten.node
        case "$.edges": AlwaysWritten.edge
        default: []
        }
      for (index, pair) in zip(left, right).enumerated() {
        pending.append(("\(path)[\(index)]", pair.0, pair.1, elementKeys))
      }
    default:
      if a != b { differences.append("\(path): \(a.serialized(options: [])) became \(b.serialized(options: []))") }
    }
  }
  return differences.sorted()
}

/// A document using every field SwiftFlow saves, with non-default values, keys sorted.
private let richDocument = #"""
  {
    "edges": [
      {"id": "e1", "isSelected": true, "label": "left", "parentID": "frame", "pathType": "straight",
       "sourceHandleID": "value", "sourceNodeID": "a", "targetHandleID": "a", "targetNodeID": "sum"},
      {"id": "e2", "isSelected": false, "pathType": "simpleBezier",
       "sourceNodeID": "b", "targetHandleID": "b", "targetNodeID": "sum"}
    ],
    "flowRuntime": {"formatVersion": 1},
    "metadata": {"author": "tests", "tags": ["x", 1, null]},
    "nodes": [
      {"acceptsChildren": true, "data": {"kind": "group", "params": {}}, "handles": [], "id": "frame",
       "isDraggable": false, "isSelected": false, "persistence": "persistent", "phase": {"normal": {}},
       "position": [-10, -20.25], "size": [500, 300], "zIndex": -1},
      {"acceptsChildren": false,
       "data": {"color": "red", "kind": "number", "label": "first", "params": {"value": 2}, "ui": {"collapsed": true}},
       "handles": [{"connectionStartArea": {"disabled": {}}, "connectionTargetArea": {"nodeBorder": {"width": 6}},
                    "id": "value", "position": "bottom", "type": "source"}],
       "id": "a", "isDraggable": true, "isSelected": true, "parentID": "frame", "persistence": "transient",
       "phase": {"draft": {"_0": "valid"}}, "position": [1.5, 2], "size": [120, 60], "zIndex": 3},
      {"acceptsChildren": false, "data": {"kind": "number", "params": {"value": -0.5}}, "id": "b",
       "isDraggable": true, "isSelected": false, "persistence": "persistent", "phase": {"draft": {"_0": "invalid"}},
       "position": [0, 100], "size": [150, 60], "zIndex": 0},
      {"acceptsChildren": false, "data": {"kind": "add", "params": {}},
       "handles": [{"connectionTargetArea": {"node": {}}, "id": "a", "position": "top", "type": "target"},
                   {"connectionTargetArea": {"point": {"radius": 12}}, "id": "b", "position": "center", "type": "target"},
                   {"id": "result", "position": "right", "type": "source"}],
       "id": "sum", "isDraggable": true, "isSelected": false, "parentID": "frame", "persistence": "persistent",
       "phase": {"draft": {"_0": "neutral"}}, "position": [240, 40.5], "size": [160, 80], "zIndex": 1}
    ],
    "viewport": {"offset": [120, -40], "zoom": 0.75},
    "version": "2024.1"
  }
  """#

@Suite struct FlowDocumentRoundTripTests {
  // MARK: - The SwiftFlow fixture

  @Test func swiftFlowFixtureLoadsWithEveryField() throws {
    let document = try FlowDocument(jsonBytes: fixture("swiftflow-document.json"))
    #expect(document.nodes.map(\.id) == ["a", "b", "sum"])
    #expect(document.edges.map(\.id) == ["e1", "e2"])
    #expect(document.viewport == Viewport(offset: CGPoint(x: 120, y: -40), zoom: 1.25))
    #expect(document.extra.isEmpty)

    let b = document.nodes[1]
    #expect(b.data == NodeSpec(kind: "number", params: ["value": 3.5], label: "three and a half"))
    #expect(b.position == CGPoint(x: 0, y: 120))
    #expect(b.size == CGSize(width: 150, height: 60))
    #expect(b.handles == [HandleDeclaration(id: "value", type: .source, position: .right)])

    let sum = document.nodes[2]
    #expect(sum.position == CGPoint(x: 240, y: 40.5))
    #expect(sum.size == CGSize(width: 160, height: 80))
    #expect(
      sum.handles == [
        HandleDeclaration(id: "a", type: .target, position: .left),
        HandleDeclaration(id: "b", type: .target, position: .left, connectionTargetArea: .node),
        HandleDeclaration(id: "result", type: .source, position: .right, connectionStartArea: .point(radius: 12))
      ])
    #expect(
      document.edges[0]
        == FlowEdge(
          id: "e1", sourceNodeID: "a", sourceHandleID: "value",
          targetNodeID: "sum", targetHandleID: "a"))
    #expect(
      document.edges[1]
        == FlowEdge(
          id: "e2", sourceNodeID: "b", sourceHandleID: "value", targetNodeID: "sum",
          targetHandleID: "b", label: "rhs", pathType: .smoothStep))
  }

  @Test func swiftFlowFixtureValidatesAgainstTheTestCatalog() throws {
    let graph = try DocumentValidator.load(fixture("swiftflow-document.json"), catalog: TestCatalog())
    #expect(graph.nodeCount == 3)
    #expect(graph.edges.count == 2)
    #expect(graph.topologicalOrder.last.map { graph.nodeID(Int($0)) } == "sum")
  }

  @Test func swiftFlowFixtureSurvivesLoadWriteLoad() throws {
    let document = try FlowDocument(jsonBytes: fixture("swiftflow-document.json"))
    #expect(try roundTripped(document) == document)
  }

  @Test func writtenSwiftFlowFixtureIsSemanticallyTheOriginalFile() throws {
    let bytes = try fixture("swiftflow-document.json")
    let written = try FlowDocument(jsonBytes: bytes).jsonString()
    #expect(semanticDifferences(original: try JSONValue.parse(bytes), written: try JSONValue.parse(written)) == [])
  }

  @Test func writtenJSONIsPrettyPrintedWithSortedKeysLikeSwiftFlow() throws {
    let written = try FlowDocument(jsonBytes: fixture("swiftflow-document.json")).jsonString()
    #expect(written.hasPrefix("{\n  \"edges\" : ["))
    let rootKeys = written.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
    #expect(rootKeys == ["edges", "flowRuntime", "nodes", "viewport"])
  }

  // MARK: - Every field SwiftFlow saves

  @Test func richDocumentSurvivesLoadWriteLoad() throws {
    let document = try load(richDocument)
    #expect(try roundTripped(document) == document)
  }

  @Test func writtenRichDocumentIsSemanticallyTheOriginal() throws {
    let written = try load(richDocument).jsonString()
    #expect(
      semanticDifferences(original: try JSONValue.parse(richDocument), written: try JSONValue.parse(written)) == [])
  }

  @Test func nodeFieldsAreReadAsWritten() throws {
    let document = try load(richDocument)
    let frame = document.nodes[0], a = document.nodes[1], b = document.nodes[2], sum = document.nodes[3]
    #expect(frame.acceptsChildren && !frame.isDraggable && frame.zIndex == -1)
    #expect(frame.handles == [])
    #expect(frame.position == CGPoint(x: -10, y: -20.25))
    #expect(a.parentID == "frame" && sum.parentID == "frame" && frame.parentID == nil && b.parentID == nil)
    #expect(a.persistence == .transient && b.persistence == .persistent)
    #expect(a.isSelected && !b.isSelected)
    #expect(a.zIndex == 3)
    #expect([frame.phase, a.phase, b.phase, sum.phase] == [.normal, .draft(.valid), .draft(.invalid), .draft(.neutral)])
    #expect(a.data.label == "first" && b.data.label == nil)
    #expect(b.handles == nil)
  }

  @Test func dataKeysOtherThanKindParamsAndLabelAreKept() throws {
    let document = try load(richDocument)
    #expect(document.nodes[1].data.extra == ["color": "red", "ui": ["collapsed": true]])
    let written = try roundTripped(document)
    #expect(written.nodes[1].data.extra == ["color": "red", "ui": ["collapsed": true]])
  }

  @Test func unknownTopLevelKeysAreKept() throws {
    let document = try load(richDocument)
    #expect(document.extra == ["metadata": ["author": "tests", "tags": ["x", 1, nil]], "version": "2024.1"])
    let written = try JSONValue.parse(document.jsonString())
    #expect(written.objectValue?["version"] == "2024.1")
    #expect(written.objectValue?["metadata"]?.objectValue?["tags"] == ["x", 1, nil])
  }

  @Test func edgeFieldsAreReadAsWritten() throws {
    let document = try load(richDocument)
    #expect(
      document.edges[0]
        == FlowEdge(
          id: "e1", sourceNodeID: "a", sourceHandleID: "value", targetNodeID: "sum",
          targetHandleID: "a", parentID: "frame", label: "left", pathType: .straight,
          isSelected: true))
    #expect(
      document.edges[1]
        == FlowEdge(
          id: "e2", sourceNodeID: "b", targetNodeID: "sum", targetHandleID: "b",
          pathType: .simpleBezier))
  }

  @Test func edgeWithoutHandleIDsIsWrittenWithoutThem() throws {
    let written = try JSONValue.parse(load(richDocument).jsonString())
    let e2 = written.objectValue?["edges"]?.arrayValue?[1].objectValue
    #expect(e2?["sourceHandleID"] == nil)
    #expect(e2?["targetHandleID"] == "b")
    #expect(e2?["label"] == nil && e2?["parentID"] == nil)
  }

  @Test(arguments: [FlowEdge.PathType.bezier, .straight, .smoothStep, .simpleBezier])
  func everyPathTypeRoundTrips(pathType: FlowEdge.PathType) throws {
    var document = FlowDocument(nodes: [.node("a", "number"), .node("b", "pass")], edges: [.edge("e", "a", "b")])
    document.edges[0].pathType = pathType
    #expect(try roundTripped(document).edges[0].pathType == pathType)
    let written = try JSONValue.parse(document.jsonString())
    #expect(written.objectValue?["edges"]?.arrayValue?[0].objectValue?["pathType"] == .string(pathType.rawValue))
  }

  @Test(arguments: [FlowNode.Phase.normal, .draft(.neutral), .draft(.valid), .draft(.invalid)])
  func everyPhaseRoundTrips(phase: FlowNode.Phase) throws {
    var document = FlowDocument(nodes: [.node("a", "number")])
    document.nodes[0].phase = phase
    #expect(try roundTripped(document).nodes[0].phase == phase)
  }

  @Test(arguments: [HandleDeclaration.HitArea.disabled, .node, .point(radius: 12), .nodeBorder(width: 6.5)])
  func everyHitAreaRoundTrips(area: HandleDeclaration.HitArea) throws {
    let handle = HandleDeclaration(
      id: "value", type: .source, position: .right,
      connectionStartArea: area, connectionTargetArea: area)
    let document = FlowDocument(nodes: [.node("a", "number", handles: [handle])])
    #expect(try roundTripped(document).nodes[0].handles == [handle])
  }

  @Test(arguments: [HandleDeclaration.Position.center, .top, .bottom, .left, .right])
  func everyHandlePositionRoundTrips(position: HandleDeclaration.Position) throws {
    let handle = HandleDeclaration(id: "value", type: .source, position: position)
    let document = FlowDocument(nodes: [.node("a", "number", handles: [handle])])
    #expect(try roundTripped(document).nodes[0].handles == [handle])
  }

  // MARK: - Lenient reading, complete writing (Reference.md, "Documents")

  @Test func missingViewportPositionSizeAndHandlesTakeTheirDefaults() throws {
    let document = try load(#"{"nodes": [{"id": "a", "data": {"kind": "number"}}], "edges": []}"#)
    #expect(document.viewport == Viewport(offset: .zero, zoom: 1))
    let node = document.nodes[0]
    #expect(node.position == .zero)
    #expect(node.size == CGSize(width: 150, height: 60))
    #expect(node.handles == nil)
    #expect(node == FlowNode(id: "a", data: NodeSpec(kind: "number")))
    #expect(node.phase == .normal && node.persistence == .persistent)
    #expect(!node.isSelected && node.isDraggable && !node.acceptsChildren && node.zIndex == 0 && node.parentID == nil)
  }

  @Test func missingEdgeFieldsTakeTheirDefaults() throws {
    let document = try load(
      #"""
      {"nodes": [], "edges": [{"id": "e", "sourceNodeID": "a", "targetNodeID": "b"}]}
      """#)
    #expect(document.edges == [FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b")])
    #expect(document.edges[0].pathType == .bezier && !document.edges[0].isSelected)
  }

  @Test func missingEdgesArrayReadsAsNoEdges() throws {
    #expect(try load(#"{"nodes": []}"#) == FlowDocument())
  }

  @Test func viewportWithOnlyAZoomKeepsTheDefaultOffset() throws {
    let document = try load(#"{"nodes": [], "edges": [], "viewport": {"zoom": 2}}"#)
    #expect(document.viewport == Viewport(offset: .zero, zoom: 2))
  }

  @Test func nullOptionalValuesReadAsAbsent() throws {
    let document = try load(
      #"""
      {"nodes": [{"id": "a", "parentID": null, "data": {"kind": "number", "params": null, "label": null}}],
       "edges": [{"id": "e", "sourceNodeID": "a", "targetNodeID": "a", "label": null, "sourceHandleID": null}]}
      """#)
    #expect(document.nodes[0] == FlowNode(id: "a", data: NodeSpec(kind: "number")))
    #expect(document.edges[0] == FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "a"))
  }

  @Test func aHandWrittenDocumentIsWrittenWithEveryKeySwiftFlowRequires() throws {
    let written = try JSONValue.parse(
      load(
        #"""
        {"nodes": [{"id": "a", "data": {"kind": "number"}}],
         "edges": [{"id": "e", "sourceNodeID": "a", "targetNodeID": "a"}]}
        """#
      ).jsonString())
    let root = try #require(written.objectValue)
    #expect(Set(root.keys) == ["nodes", "edges", "viewport", "flowRuntime"])
    #expect(root["viewport"] == ["offset": [0, 0], "zoom": 1])
    #expect(root["flowRuntime"] == ["formatVersion": 1])
    let node = try #require(root["nodes"]?.arrayValue?.first?.objectValue)
    #expect(
      Set(node.keys) == [
        "id", "position", "size", "data", "phase", "persistence", "isSelected", "isDraggable",
        "acceptsChildren", "zIndex"
      ])
    #expect(node["position"] == [0, 0])
    #expect(node["size"] == [150, 60])
    #expect(node["phase"] == ["normal": [:]])
    #expect(node["persistence"] == "persistent")
    #expect(node["data"] == ["kind": "number", "params": [:]])
    let edge = try #require(root["edges"]?.arrayValue?.first?.objectValue)
    #expect(Set(edge.keys) == ["id", "sourceNodeID", "targetNodeID", "pathType", "isSelected"])
  }

  @Test func writingIsStableAfterOneRoundTrip() throws {
    // Keys out of order, as a person might write them: the first write sorts them.
    let once = try load(
      #"""
      {"viewport": {"zoom": 1, "offset": [3, 4]}, "zeta": 1, "alpha": 2,
       "nodes": [{"data": {"params": {"z": 1, "a": 2}, "kind": "number", "b": 0, "a": 1}, "id": "a"}]}
      """#
    ).jsonString()
    let twice = try load(once).jsonString()
    #expect(twice == once)
  }

  // MARK: - Handles: missing versus empty

  @Test func emptyHandlesStayEmptyAndMissingHandlesStayMissing() throws {
    let document = try load(
      #"""
      {"nodes": [{"id": "g", "acceptsChildren": true, "handles": [], "data": {"kind": "group"}},
                 {"id": "n", "data": {"kind": "number"}}], "edges": []}
      """#)
    #expect(document.nodes[0].handles == [])
    #expect(document.nodes[1].handles == nil)
    let written = try JSONValue.parse(document.jsonString())
    let nodes = try #require(written.objectValue?["nodes"]?.arrayValue)
    #expect(nodes[0].objectValue?["handles"] == [])
    #expect(nodes[1].objectValue?["handles"] == nil)
    #expect(try roundTripped(document) == document)
  }

  @Test func derivedHandlesFillOnlyNodesWithoutAHandlesKey() throws {
    let custom = [HandleDeclaration(id: "value", type: .source, position: .bottom)]
    let document = FlowDocument(nodes: [
      .node("g", "group", handles: []), .node("n", "number", handles: custom), .node("sum", "add"), .node("x", "nope")
    ]).withDerivedHandles(from: TestCatalog())
    #expect(document.nodes[0].handles == [])
    #expect(document.nodes[1].handles == custom)
    #expect(
      document.nodes[2].handles == [
        HandleDeclaration(id: "a", type: .target, position: .left),
        HandleDeclaration(id: "b", type: .target, position: .left),
        HandleDeclaration(id: "result", type: .source, position: .right)
      ])
    #expect(document.nodes[3].handles == nil)
  }

  @Test func derivedHandlesAgreeWithTheKind() throws {
    let document = FlowDocument(
      nodes: [.node("a", "number"), .node("sum", "add"), .node("g", "group")],
      edges: [.edge("e", "a", "sum.a")]
    ).withDerivedHandles(from: TestCatalog())
    #expect(document.validationIssues() == [])
    #expect(try roundTripped(document) == document)
  }

  // MARK: - Format version

  @Test func documentWithoutAFormatVersionIsWrittenWithTheCurrentOne() throws {
    let written = try JSONValue.parse(load(#"{"nodes": []}"#).jsonString())
    #expect(
      written.objectValue?["flowRuntime"] == ["formatVersion": .number(Double(FlowDocument.currentFormatVersion))])
  }

  @Test(arguments: [0, 1])
  func olderAndCurrentFormatVersionsLoad(version: Int) throws {
    let document = try load(
      #"{"nodes": [{"id": "a", "data": {"kind": "number"}}], "flowRuntime": {"formatVersion": \#(version)}}"#)
    #expect(document.nodes.map(\.id) == ["a"])
    #expect(document.extra.isEmpty)
  }
}
