import Foundation
import Testing

import FlowGraph
import FlowTestSupport

/// `FlowDocument(jsonBytes:)` reads the common node and edge shapes straight from the bytes
/// (`UnsafeDocumentElementScanner`) and everything else through `JSONValue`: the result and the
/// error must be exactly those of `FlowDocument(json:)` over the parsed tree, for every input.
@Suite struct DirectElementDecodingTests {
  /// How `bytes` load through the streaming decoder, and how many elements it read directly.
  static func streamed(
    _ bytes: [UInt8], step: Int = FlowDocument.passedStep,
    passed: ((Int) -> Void)? = nil
  ) -> (Result<FlowDocument, DocumentLoadError>, direct: Int) {
    var direct = 0
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(DocumentLoadError) in
        try FlowDocument(jsonBuffer: buffer, passed: passed, step: step, directCount: &direct)
      }
    }
    return (result, direct)
  }

  /// How the same bytes load the plain way: the whole tree, then `FlowDocument(json:)`.
  static func plain(_ bytes: [UInt8]) -> Result<FlowDocument, DocumentLoadError> {
    let json: JSONValue
    do { json = try JSONValue.parse(bytes) } catch { return .failure(.syntax(error)) }
    do { return .success(try FlowDocument(json: json)) } catch { return .failure(.invalid(error)) }
  }

  /// The document, or the error's text.
  static func comparable(_ result: Result<FlowDocument, DocumentLoadError>) -> Result<FlowDocument, Message> {
    result.mapError { Message(text: $0.description) }
  }

  struct Message: Error, Equatable { var text: String }

  @Test(arguments: 0..<600)
  func directDecodingReadsLikeThePlainPath(seed: UInt64) {
    var text = RandomElementText(seed: seed)
    let bytes = Array(text.document().utf8)
    let (result, _) = Self.streamed(bytes)
    let expected = Self.plain(bytes)
    #expect(result == expected, "\(String(decoding: bytes, as: UTF8.self))")
    #expect(Self.comparable(result) == Self.comparable(expected))
    // The public entry point is the same decoder.
    let viaBytes = Result { () throws(DocumentLoadError) in try FlowDocument(jsonBytes: bytes) }
    #expect(viaBytes == expected)
  }

  @Test func randomDocumentsExerciseBothPaths() {
    var direct = 0, declined = 0, valid = 0
    for seed in 0..<300 as Range<UInt64> {
      var text = RandomElementText(seed: seed)
      let bytes = Array(text.document().utf8)
      let (result, count) = Self.streamed(bytes)
      direct += count
      if case .success(let document) = result {
        valid += 1
        declined += document.nodes.count + document.edges.count - count
      }
    }
    // Both paths read many elements, and many documents are valid (the rest have problems).
    #expect(direct > 300)
    #expect(declined > 100)
    #expect(valid > 100 && valid < 250)
  }

  @Test func theCommonShapeIsReadDirectly() throws {
    let nodes = (0..<50).map { index in
      index < 5
        ? #"{"id":"n\#(index)","position":[\#(index * 200),0],"data":{"kind":"source","params":{"value":\#(index)}}}"#
        : #"{"id":"n\#(index)","position":[\#(index * 200),100.5],"data":{"kind":"addmod"}}"#
    }
    let edges = (5..<50).map { index in
      #"{"id":"e\#(index)","sourceNodeID":"n\#(index % 5)","targetNodeID":"n\#(index)","targetHandleID":"a"}"#
    }
    let bytes = Array(#"{"nodes":[\#(nodes.joined(separator: ","))],"edges":[\#(edges.joined(separator: ","))]}"#.utf8)
    let (result, direct) = Self.streamed(bytes)
    let document = try result.get()
    #expect(direct == 95)
    #expect(document == (try Self.plain(bytes).get()))
    #expect(document.nodes[3].data.params["value"] == .number(3))
    #expect(document.nodes[7].position.y == 100.5)
    #expect(document.edges[0].targetHandleID == "a" && document.edges[0].sourceHandleID == nil)
  }

  /// Past its first 1,024 elements an array reserves room for the rest (estimated from the
  /// bytes left, whatever follows): the elements are the same, in order.
  /// `jsonString()` writes every key of every node and edge (pretty-printed, sorted): such
  /// documents are read directly too, rare fields included (except handles and draft phases).
  @Test func documentsWrittenByThisLibraryAreReadDirectly() throws {
    var nodes = (0..<40).map { index in
      FlowNode(
        id: "n\(index)", data: NodeSpec(kind: "add", params: ["b": .number(Double(index))]),
        position: CGPoint(x: Double(index), y: 0.5))
    }
    nodes[1].isSelected = true
    nodes[2].zIndex = -7
    nodes[3].persistence = .transient
    nodes[4].parentID = "n0"
    nodes[5].isDraggable = false
    nodes[6].acceptsChildren = true
    nodes[7].data.label = "seven"
    nodes[8].phase = .draft(.valid)
    nodes[9].handles = [HandleDeclaration(id: "in", type: .target, position: .left)]
    var edges = (1..<40).map {
      FlowEdge(id: "e\($0)", sourceNodeID: "n\($0 - 1)", sourceHandleID: "value", targetNodeID: "n\($0)")
    }
    edges[0].pathType = .smoothStep
    edges[1].label = "one"
    edges[2].isSelected = true
    edges[3].parentID = "n0"
    let original = FlowDocument(nodes: nodes, edges: edges)
    let bytes = Array(original.jsonString().utf8)
    let (result, direct) = Self.streamed(bytes)
    #expect(direct == 40 + 39 - 2)
    #expect(try result.get() == original)
    #expect(try result.get() == Self.plain(bytes).get())
  }

  @Test(arguments: [false, true])
  func largeArraysReadLikeThePlainPath(edgesFirst: Bool) throws {
    let nodes = (0..<3_000).map { #"{"id":"node\#($0)","position":[\#($0),-\#($0)],"data":{"kind":"add"}}"# }
    let edges = (1..<3_000).map { #"{"id":"e\#($0)","sourceNodeID":"node\#($0 - 1)","targetNodeID":"node\#($0)"}"# }
    let arrays = [#""nodes":[\#(nodes.joined(separator: ","))]"#, #""edges":[\#(edges.joined(separator: ","))]"#]
    let text =
      "{" + (edgesFirst ? arrays.reversed() : arrays).joined(separator: ",")
      + #","title":"\#(String(repeating: "x", count: 50_000))"}"#
    let bytes = Array(text.utf8)
    let (result, direct) = Self.streamed(bytes)
    let document = try result.get()
    #expect(direct == 5_999)
    #expect(document == (try Self.plain(bytes).get()))
    #expect(document.nodes.map(\.id) == (0..<3_000).map { "node\($0)" })
    #expect(document.edges.last?.targetNodeID == "node2999")
  }

  @Test func everyOptionalMemberOfTheCommonShapeIsReadDirectly() throws {
    let text = #"""
      { "nodes" : [ { "data" : { "params" : { "a" : "text" , "b" : true , "c" : null , "d" : -1.5e2 , "a" : false } ,
                                 "label" : "Sum" , "kind" : "add" } ,
                      "size" : [ 10 , 20 ] , "position" : [ -1 , 2 ] , "id" : "x" } ,
                    {"id":"y","data":{"kind":"add","params":null,"label":null},"size":[1,2]} ],
        "edges" : [ { "targetHandleID" : null , "sourceHandleID" : "out" , "targetNodeID" : "y" ,
                      "sourceNodeID" : "x" , "id" : "e" } ] }
      """#
    let bytes = Array(text.utf8)
    let (result, direct) = Self.streamed(bytes)
    let document = try result.get()
    #expect(direct == 3)
    #expect(document == (try Self.plain(bytes).get()))
    #expect(document.nodes[0].data.params.keys == ["a", "b", "c", "d", "a"])
    #expect(document.nodes[0].data.label == "Sum")
    #expect(document.edges[0].sourceHandleID == "out")
  }

  @Test(arguments: [
    #"{"id":"n\u0031","data":{"kind":"add"}}"#,
    #"{"id":"caf\#u{E9}","data":{"kind":"add"}}"#,
    #"{"id":"n1","data":{"kind":"add"},"handles":[]}"#,
    #"{"id":"n1","data":{"kind":"add"},"phase":{"draft":{"_0":"valid"}}}"#,
    #"{"id":"n1","id":"n2","data":{"kind":"add"}}"#,
    #"{"id":"n1","data":{"kind":"add","params":{"a":[1]}}}"#,
    #"{"id":"n1","data":{"kind":"add","note":1}}"#,
    #"{"i\u0064":"n1","data":{"kind":"add"}}"#
  ])
  func unusualNodesAreReadThePlainWay(node: String) throws {
    let bytes = Array(#"{"nodes":[{"id":"a","data":{"kind":"add"}},\#(node)],"edges":[]}"#.utf8)
    let (result, direct) = Self.streamed(bytes)
    #expect(direct == 1)
    #expect(try result.get() == Self.plain(bytes).get())
  }

  @Test func problemsAreReportedAsThePlainPathReportsThem() {
    let bytes = Array(
      #"{"nodes":[{"id":"a","data":{"kind":"add"}},{"id":"b","position":[1]}],"edges":[{"id":"e"}]}"#.utf8)
    let (result, _) = Self.streamed(bytes)
    guard case .failure(.invalid(let error)) = result else {
      Issue.record("expected a shape problem, got \(result)")
      return
    }
    #expect(
      error.issues.map(\.message) == [
        "node 'b' has no 'data' (expected {\"kind\": …, \"params\": {…}})",
        "node 'b': 'position' must be an array of two numbers [x, y], found array",
        "edge 'e' has no string 'sourceNodeID'", "edge 'e' has no string 'targetNodeID'"
      ])
    #expect(Self.comparable(result) == Self.comparable(Self.plain(bytes)))
  }

  @Test func syntaxErrorsInsideADirectElementAreThoseOfTheParser() {
    for text in [
      #"{"nodes":[{"id":"a","position":[1,01],"data":{"kind":"add"}}]}"#,
      #"{"nodes":[{"id":"a","data":{"kind":"add"},}]}"#,
      #"{"nodes":[{"id":"a","data":{"kind":"add"}}"#,
      #"{"edges":[{"id":"e","sourceNodeID":"a","targetNodeID":"b"} {"id":"f"}]}"#,
      #"{"nodes":[{"id" "position":[1,2],"id":"a","data":{"kind":"add"}}]}"#,
      #"{"nodes":[{"id":"a","data":{"kind" "add"}}]}"#,
      #"{"edges":[{"id":"e","sourceNodeID":"a","targetNodeID":"b","targetHandleID":nul}]}"#
    ] {
      let bytes = Array(text.utf8)
      let (result, _) = Self.streamed(bytes)
      guard case .failure(.syntax) = result else {
        Issue.record("expected a syntax error for \(text), got \(result)")
        continue
      }
      #expect(Self.comparable(result) == Self.comparable(Self.plain(bytes)), "\(text)")
    }
  }

  @Test func passedOffsetsAreReportedForDirectElements() throws {
    let nodes = (0..<200).map { #"{"id":"n\#($0)","data":{"kind":"add"}}"# }.joined(separator: ",")
    let bytes = Array(#"{"nodes":[\#(nodes)],"edges":[]}"#.utf8)
    var offsets: [Int] = []
    let (result, direct) = Self.streamed(bytes, step: 1_000) { offsets.append($0) }
    #expect(try result.get().nodes.count == 200)
    #expect(direct == 200)
    // Every report is at an element's end, at least a step after the one before.
    #expect(offsets.count >= bytes.count / 1_000 - 1 && offsets.count <= bytes.count / 1_000)
    #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 >= 1_000 })
    #expect(offsets.allSatisfy { bytes[$0 - 1] == UInt8(ascii: "}") })
  }
}
