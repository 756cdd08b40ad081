import Testing

import FlowGraph
import FlowTestSupport

/// The error loading `text` throws, or `nil` when it loads.
private func loadError(_ text: String) -> DocumentLoadError? {
  do {
    _ = try FlowDocument(jsonText: text)
    return nil
  } catch {
    return error
  }
}

/// The issues of loading `text`; records a test issue (and returns `[]`) unless the JSON is
/// well formed but not a valid document.
private func shapeIssues(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [GraphIssue] {
  switch loadError(text) {
  case .invalid(let error)?: return error.issues
  case .syntax(let error)?:
    Issue.record("expected a shape problem, got a syntax error: \(error)", sourceLocation: sourceLocation)
  case nil:
    Issue.record("expected a shape problem, but the document loaded", sourceLocation: sourceLocation)
  }
  return []
}

/// A document whose only node is `{"id": "n1", "data": {"kind": "number"}, <members>}` (with
/// `members` overriding `data` when it names it, or removing it when `data` is `nil`).
private func documentWithNode(_ members: String, data: String? = #"{"kind": "number"}"#) -> String {
  let dataMember = data.map { #""data": \#($0), "# } ?? ""
  return #"{"nodes": [{"id": "n1", \#(dataMember)\#(members)}], "edges": []}"#
}

/// A document with nodes `a` and `b` and one edge `{"id": "e1", <members>}`.
private func documentWithEdge(_ members: String) -> String {
  #"""
  {"nodes": [{"id": "a", "data": {"kind": "number"}}, {"id": "b", "data": {"kind": "pass"}}],
   "edges": [{"id": "e1", \#(members)}]}
  """#
}

/// A malformed member of a node, and words its message must contain.
struct MalformedNode: Sendable, CustomTestStringConvertible {
  var members: String
  var data: String? = #"{"kind": "number"}"#
  var words: [String]

  var testDescription: String { "\(members) data=\(data ?? "none")" }
}

/// A malformed member of an edge, and words its message must contain.
struct MalformedEdge: Sendable, CustomTestStringConvertible {
  var members: String
  var words: [String]

  var testDescription: String { members }
}

@Suite struct FlowDocumentDecodingTests {
  static let malformedNodes: [MalformedNode] = [
    MalformedNode(
      members: #""position": {"x": 1, "y": 2}"#,
      words: ["'position' must be an array of two numbers [x, y]", "found object"]),
    MalformedNode(members: #""position": [1]"#, words: ["'position'", "array of two numbers", "found array"]),
    MalformedNode(members: #""position": [1, "2"]"#, words: ["'position'", "array of two numbers"]),
    MalformedNode(
      members: #""size": "big""#, words: ["'size' must be an array of two numbers [width, height]", "found string"]),
    MalformedNode(members: #""size": {"width": 1, "height": 2}"#, words: ["'size'", "found object"]),
    MalformedNode(members: #""x": 0"#, data: nil, words: ["has no 'data'"]),
    MalformedNode(members: #""x": 0"#, data: #""add""#, words: ["'data' must be an object", "found string"]),
    MalformedNode(members: #""x": 0"#, data: #"{"kind": 1}"#, words: ["'data' has no string 'kind'"]),
    MalformedNode(members: #""x": 0"#, data: #"{"params": {}}"#, words: ["'data' has no string 'kind'"]),
    MalformedNode(
      members: #""x": 0"#, data: #"{"kind": "add", "params": [1]}"#,
      words: ["'data.params' must be an object", "found array"]),
    MalformedNode(
      members: #""x": 0"#, data: #"{"kind": "add", "label": 3}"#,
      words: ["'data.label' must be a string", "found number"]),
    MalformedNode(members: #""phase": {"draft": {"_0": "maybe"}}"#, words: ["'phase' must be"]),
    MalformedNode(members: #""phase": "normal""#, words: ["'phase' must be"]),
    MalformedNode(members: #""phase": {"normal": {}, "draft": {"_0": "valid"}}"#, words: ["'phase' must be"]),
    MalformedNode(members: #""persistence": "forever""#, words: ["'persistence'", "unknown value \"forever\""]),
    MalformedNode(members: #""isSelected": "yes""#, words: ["'isSelected' must be true or false", "found string"]),
    MalformedNode(members: #""isDraggable": 1"#, words: ["'isDraggable' must be true or false", "found number"]),
    MalformedNode(
      members: #""acceptsChildren": null"#, words: ["'acceptsChildren' must be true or false", "found null"]),
    MalformedNode(members: #""zIndex": 1.5"#, words: ["'zIndex' must be a whole number"]),
    MalformedNode(members: #""zIndex": "top""#, words: ["'zIndex' must be a whole number", "found string"]),
    MalformedNode(members: #""parentID": 5"#, words: ["'parentID' must be a string", "found number"]),
    MalformedNode(members: #""handles": {}"#, words: ["'handles' must be an array", "found object"]),
    MalformedNode(
      members: #""handles": [{"type": "source", "position": "right"}]"#,
      words: ["each handle must be an object with a string 'id'"]),
    MalformedNode(members: #""handles": ["value"]"#, words: ["each handle must be an object with a string 'id'"]),
    MalformedNode(
      members: #""handles": [{"id": "value", "type": "output", "position": "right"}]"#,
      words: ["handle 'value'", "'type'", "unknown value \"output\""]),
    MalformedNode(
      members: #""handles": [{"id": "value", "position": "right"}]"#,
      words: ["handle 'value'", "'type'", "unknown value null"]),
    MalformedNode(
      members: #""handles": [{"id": "value", "type": "source", "position": "middle"}]"#,
      words: ["handle 'value'", "'position'", "unknown value \"middle\""]),
    MalformedNode(
      members: #""handles": [{"id": "value", "type": "source", "connectionStartArea": {"circle": {}}}]"#,
      words: ["handle 'value'", "a hit area must be"]),
    MalformedNode(
      members: #""handles": [{"id": "value", "type": "source", "connectionTargetArea": {"point": {}}}]"#,
      words: ["handle 'value'", "a hit area must be"]),
    MalformedNode(
      members: #""handles": [{"id": "value", "type": "source", "connectionTargetArea": "node"}]"#,
      words: ["handle 'value'", "a hit area must be"])
  ]

  @Test(arguments: malformedNodes)
  func malformedNodeIsReportedWithTheNodeID(_ example: MalformedNode) {
    let issues = shapeIssues(documentWithNode(example.members, data: example.data))
    #expect(issues.count == 1)
    guard let issue = issues.first else { return }
    #expect(issue.code == .malformedDocument)
    #expect(issue.nodeIDs == ["n1"])
    #expect(issue.edgeID == nil)
    #expect(issue.message.contains("node 'n1'"))
    for word in example.words {
      #expect(issue.message.contains(word), "\(issue.message) should contain \(word)")
    }
  }

  static let malformedEdges: [MalformedEdge] = [
    MalformedEdge(members: #""targetNodeID": "b""#, words: ["has no string 'sourceNodeID'"]),
    MalformedEdge(members: #""sourceNodeID": "a", "targetNodeID": 3"#, words: ["has no string 'targetNodeID'"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "sourceHandleID": 1"#,
      words: ["'sourceHandleID' must be a string", "found number"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "targetHandleID": true"#,
      words: ["'targetHandleID' must be a string", "found bool"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "label": 5"#,
      words: ["'label' must be a string"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "parentID": []"#,
      words: ["'parentID' must be a string", "found array"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "pathType": "curvy""#,
      words: ["'pathType' must be one of bezier, straight, smoothStep, simpleBezier"]),
    MalformedEdge(
      members: #""sourceNodeID": "a", "targetNodeID": "b", "isSelected": "no""#,
      words: ["'isSelected' must be true or false", "found string"])
  ]

  @Test(arguments: malformedEdges)
  func malformedEdgeIsReportedWithTheEdgeID(_ example: MalformedEdge) {
    let issues = shapeIssues(documentWithEdge(example.members))
    #expect(issues.count == 1)
    guard let issue = issues.first else { return }
    #expect(issue.code == .malformedDocument)
    #expect(issue.edgeID == "e1")
    #expect(issue.nodeIDs == [])
    #expect(issue.message.contains("edge 'e1'"))
    for word in example.words {
      #expect(issue.message.contains(word), "\(issue.message) should contain \(word)")
    }
  }

  @Test(arguments: [
    (#"[]"#, "must be a JSON object with 'nodes' and 'edges', found array"),
    (#""graph""#, "must be a JSON object with 'nodes' and 'edges', found string"),
    (#"{"edges": []}"#, "the document has no 'nodes' array"),
    (#"{"nodes": {}, "edges": []}"#, "'nodes' must be an array, found object"),
    (#"{"nodes": [], "edges": "none"}"#, "'edges' must be an array, found string"),
    (#"{"nodes": [{"id": "a", "data": {"kind": "number"}}, 7]}"#, "nodes[1] must be an object, found number"),
    (#"{"nodes": [{"data": {"kind": "number"}}]}"#, "nodes[0] has no string 'id'"),
    (#"{"nodes": [{"id": 1, "data": {"kind": "number"}}]}"#, "nodes[0] has no string 'id'"),
    (
      #"{"nodes": [], "edges": [null]}"#,
      "edges[0] must be an object or a string \"source.port -> target.port\", found null"
    ),
    (
      #"{"nodes": [], "edges": [{"id": 5, "sourceNodeID": "a", "targetNodeID": "b"}]}"#,
      "edges[0]: 'id' must be a string, found number"
    ),
    (
      #"{"nodes": [], "edges": [{"targetNodeID": "b"}]}"#,
      "edges[0] has no string 'id' and no 'sourceNodeID' and 'targetNodeID'"
    ),
    (#"{"nodes": [], "viewport": [0, 0]}"#, "'viewport' must be an object, found array"),
    (
      #"{"nodes": [], "viewport": {"offset": {"x": 0, "y": 0}, "zoom": 1}}"#,
      "'viewport.offset' must be an array of two numbers [x, y], found object"
    ),
    (#"{"nodes": [], "viewport": {"offset": [0, 0], "zoom": "1"}}"#, "'viewport.zoom' must be a number, found string"),
    (#"{"nodes": [], "flowRuntime": 1}"#, "'flowRuntime' must be an object, found number"),
    (#"{"nodes": [], "flowRuntime": {"formatVersion": "1"}}"#, "'flowRuntime.formatVersion' must be a whole number"),
    (#"{"nodes": [], "flowRuntime": {"formatVersion": 1.5}}"#, "'flowRuntime.formatVersion' must be a whole number"),
    (#"{"nodes": [], "flowRuntime": {"formatVersion": -1}}"#, "'flowRuntime.formatVersion' must be a whole number")
  ])
  func malformedDocumentShapeIsReported(text: String, message: String) {
    let issues = shapeIssues(text)
    #expect(issues.map(\.code) == [.malformedDocument])
    #expect(issues.first?.message.contains(message) == true, "\(issues.first?.message ?? "none")")
  }

  @Test func everyProblemOfADocumentIsReportedTogether() {
    let issues = shapeIssues(
      #"""
      {"nodes": [
         {"id": "a", "position": {"x": 1, "y": 2}, "data": {"kind": "number"}},
         {"id": "b"},
         {"id": "ok", "data": {"kind": "number"}},
         {"id": "c", "data": {"kind": 7}, "phase": "draft", "zIndex": 0.5},
         3
       ],
       "edges": [
         {"id": "e1", "sourceNodeID": "a"},
         {"id": "e2", "sourceNodeID": "a", "targetNodeID": "b", "pathType": "wiggly"},
         {"id": "e3", "sourceNodeID": "a", "targetNodeID": "b"}
       ],
       "viewport": {"offset": [0, 0], "zoom": null}}
      """#)
    #expect(issues.allSatisfy { $0.code == .malformedDocument })
    #expect(issues.map(\.nodeIDs) == [["a"], ["b"], ["c"], ["c"], ["c"], [], [], [], []])
    #expect(issues.map(\.edgeID) == [nil, nil, nil, nil, nil, nil, "e1", "e2", nil])
    #expect(issues[3].message.contains("'phase'"))
    #expect(issues[4].message.contains("'zIndex'"))
    #expect(issues[5].message.contains("nodes[4]"))
    #expect(issues[8].message.contains("'viewport.zoom'"))
  }

  @Test func loadErrorDescriptionListsOneProblemPerLine() {
    let error = loadError(#"{"nodes": [{"id": "a"}, {"id": "b"}]}"#)
    #expect(
      error?.description == """
        node 'a' has no 'data' (expected {"kind": …, "params": {…}})
        node 'b' has no 'data' (expected {"kind": …, "params": {…}})
        """)
  }

  @Test func aRepeatedTopLevelKeyCountsOnceWithItsLastValue() throws {
    let document = try FlowDocument(
      jsonText: #"""
        {"nodes": [{"id": "old", "data": {"kind": "number"}}], "edges": "ignored",
         "nodes": [{"id": "new", "data": {"kind": "number"}}], "edges": [],
         "extra": 1, "extra": 2}
        """#)
    #expect(document.nodes.map(\.id) == ["new"])
    #expect(document.extra == ["extra": 2])
  }

  // MARK: - Bad JSON

  @Test func badJSONIsASyntaxErrorWithLineAndColumn() throws {
    let error = loadError("{\n  \"nodes\": [\n    {\"id\": \"a\",}\n  ]\n}")
    guard case .syntax(let syntax)? = error else {
      Issue.record("expected a syntax error, got \(String(describing: error))")
      return
    }
    // Line 3 is `    {"id": "a",}`: the trailing comma is at column 15.
    #expect(syntax.line == 3)
    #expect(syntax.column == 15)
    #expect(error?.description == "invalid JSON at line 3, column 15: trailing comma in object")
  }

  @Test(arguments: ["", "   ", "{\"nodes\": [}", "{\"nodes\": []} x", "{'nodes': []}", "{\"nodes\": [NaN]}"])
  func textThatIsNotJSONIsASyntaxError(text: String) {
    guard case .syntax? = loadError(text) else {
      Issue.record("expected a syntax error for \(text)")
      return
    }
  }

  @Test func loadingThroughTheValidatorKeepsSyntaxErrors() {
    #expect(throws: DocumentLoadError.self) {
      _ = try DocumentValidator.load(Array("{\"nodes\": [".utf8), catalog: TestCatalog())
    }
    do {
      _ = try DocumentValidator.load(Array("{\"nodes\": [".utf8), catalog: TestCatalog())
    } catch {
      guard case .syntax(let syntax) = error else { Issue.record("expected a syntax error, got \(error)"); return }
      #expect(syntax.line == 1 && syntax.column == 12)
    }
  }

  @Test func loadingThroughTheValidatorReportsGraphProblemsAsInvalid() {
    do {
      _ = try DocumentValidator.load(
        Array(#"{"nodes": [{"id": "a", "data": {"kind": "nope"}}]}"#.utf8),
        catalog: TestCatalog())
      Issue.record("expected an error")
    } catch {
      guard case .invalid(let invalid) = error else { Issue.record("expected .invalid, got \(error)"); return }
      #expect(invalid.issues.map(\.code) == [.unknownKind])
    }
  }

  // MARK: - Format version

  @Test func newerFormatVersionIsUnsupported() {
    let issues = shapeIssues(#"{"nodes": [], "flowRuntime": {"formatVersion": 2}}"#)
    #expect(issues.map(\.code) == [.unsupportedFormatVersion])
    let message = issues.first?.message ?? ""
    #expect(message.contains("format version 2"))
    #expect(message.contains("newer"))
    #expect(message.contains("(\(FlowDocument.currentFormatVersion))"))
  }

  @Test func newerFormatVersionIsReportedWithTheOtherProblems() {
    let issues = shapeIssues(#"{"flowRuntime": {"formatVersion": 7}, "nodes": [{"id": "a"}]}"#)
    #expect(issues.map(\.code) == [.unsupportedFormatVersion, .malformedDocument])
  }

  @Test func unknownFlowRuntimeKeysAreKept() throws {
    let document = try FlowDocument(jsonText: #"{"nodes": [], "flowRuntime": {"formatVersion": 1, "writer": "x"}}"#)
    #expect(document.shape.runtime?.unknown["writer"] == .string("x"))
    #expect(document.nodes.isEmpty && document.edges.isEmpty)
    #expect(try FlowDocument(jsonText: document.jsonString()) == document)
  }
}
