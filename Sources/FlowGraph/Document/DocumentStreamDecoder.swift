/// Decodes the `nodes` and `edges` of a document as `JSONParser` reaches them (see
/// `FlowDocument.init(jsonBuffer:passed:step:)`).
///
/// Each element is first offered to the direct scanner (`UnsafeDocumentElementScanner.swift`),
/// which reads the common shapes straight from the bytes; an element it declines is parsed into
/// a `JSONValue` and read by `DocumentReader`, exactly as `FlowDocument(json:)` reads it. Once a
/// problem is found, elements are only parsed (for their syntax): the document is then read
/// again the plain way.
struct DocumentStreamDecoder: JSONStreamHandler {
  var reader = DocumentReader()
  /// The elements read without a problem, in document order.
  var nodes: [FlowNode] = []
  var edges: [FlowEdge] = []
  /// Every element reached (its position for messages).
  var nodeCount = 0
  var edgeCount = 0
  /// How many elements the direct scanner read (the rest went through `JSONValue`).
  var directCount = 0
  /// Told the offset the parser passed, every `step` bytes.
  let passed: ((Int) -> Void)?
  let step: Int
  private var reported = 0

  init(passed: ((Int) -> Void)?, step: Int) {
    self.passed = passed
    self.step = step
  }

  mutating func decodeDirectly(_ key: Int, _ parser: inout JSONParser) -> Bool {
    guard reader.problemCount == 0 else { return false }
    if key == 0 {
      guard let node = parser.scanNode() else { return false }
      nodes.append(node)
      nodeCount += 1
    } else {
      guard let edge = parser.scanEdge() else { return false }
      edges.append(edge)
      edgeCount += 1
    }
    directCount += 1
    report(parser.index)
    return true
  }

  mutating func element(_ key: Int, _ value: consuming JSONValue, offset: Int) {
    report(offset)
    guard reader.problemCount == 0 else { return }
    if key == 0 {
      if let node = reader.node(value, position: nodeCount) { nodes.append(node) }
      nodeCount += 1
    } else {
      if let edge = reader.edge(value, position: edgeCount) { edges.append(edge) }
      edgeCount += 1
    }
  }

  @inline(__always)
  private mutating func report(_ offset: Int) {
    if let passed, offset - reported >= step {
      reported = offset
      passed(offset)
    }
  }
}
