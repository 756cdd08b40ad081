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
      if nodeCount == 0 { arrayStart.nodes = parser.index }
      guard parser.scanNode(into: &nodes) else { return false }
      nodeCount += 1
      if nodeCount == Self.sampleSize { reserve(&nodes, from: arrayStart.nodes, parser) }
    } else {
      if edgeCount == 0 { arrayStart.edges = parser.index }
      guard parser.scanEdge(into: &edges) else { return false }
      edgeCount += 1
      if edgeCount == Self.sampleSize { reserve(&edges, from: arrayStart.edges, parser) }
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

  /// Where the first element of each array started (its first `sampleSize` elements tell how
  /// long an element is).
  private var arrayStart = (nodes: 0, edges: 0)
  /// After this many elements read directly, an array reserves room for the rest.
  static let sampleSize = 1_024

  /// Reserves room in `array`, whose first `sampleSize` elements took the bytes from `start` to
  /// `parser.index`, for as many more as the rest of the document holds at that length — an
  /// overestimate when other content follows, but one array instead of a dozen grown and copied
  /// (the room beyond the elements is never touched, so it is address space, not memory). At
  /// most the rest of the document's size in bytes is reserved.
  private func reserve<Element>(_ array: inout [Element], from start: Int, _ parser: borrowing JSONParser) {
    let sampled = parser.index - start
    let rest = parser.count - parser.index
    guard sampled > 0, rest > 0 else { return }
    let estimate = rest / max(1, sampled / Self.sampleSize)
    let limit = rest / MemoryLayout<Element>.stride
    array.reserveCapacity(array.count + min(estimate + estimate / 32, limit))
  }

  @inline(__always)
  private mutating func report(_ offset: Int) {
    if let passed, offset - reported >= step {
      reported = offset
      passed(offset)
    }
  }
}
