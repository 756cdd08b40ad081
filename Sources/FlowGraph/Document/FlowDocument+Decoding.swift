import Foundation

extension FlowDocument {
  /// Reads a document from the bytes of a JSON file.
  ///
  /// - Throws: `DocumentLoadError.syntax` with the line and column of bad JSON, or
  ///   `DocumentLoadError.invalid` listing every shape problem found (not only the first).
  public init(jsonBytes: [UInt8]) throws(DocumentLoadError) {
    let result = jsonBytes.withUnsafeBufferPointer { buffer in
      Result { () throws(DocumentLoadError) in try FlowDocument(jsonBuffer: buffer, passed: nil) }
    }
    self = try result.get()
  }

  /// `init(jsonBytes:)` over a buffer the caller keeps alive for the call.
  ///
  /// - Parameter passed: told, now and then, the offset below which the parser no longer reads
  ///   the buffer (except to count lines for an error, or to read the document again when it
  ///   has a problem): a caller holding a file mapping releases those pages.
  ///   - step: how far the parser moves between two reports (bytes).
  package init(
    jsonBuffer buffer: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)?,
    step: Int = FlowDocument.passedStep
  ) throws(DocumentLoadError) {
    var directCount = 0
    try self.init(jsonBuffer: buffer, passed: passed, step: step, directCount: &directCount)
  }

  /// `init(jsonBuffer:passed:step:)`, telling how many nodes and edges were read straight from
  /// the bytes (`DocumentStreamDecoder`), for tests.
  package init(
    jsonBuffer buffer: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)?, step: Int,
    directCount: inout Int
  ) throws(DocumentLoadError) {
    // Nodes and edges are decoded as the parser reaches them, so the JSON tree of a large
    // document is never held whole. A document with a problem is read again the plain way,
    // so that its problems are reported exactly as `init(json:)` reports them.
    var decoder = DocumentStreamDecoder(passed: passed, step: step)
    let json: JSONValue
    do { json = try JSONParser.parse(buffer, streaming: ["nodes", "edges"], into: &decoder) } catch {
      throw .syntax(error)
    }
    directCount = decoder.directCount
    let root = json.objectValue
    if decoder.reader.problemCount == 0, let root,
      root.members.count(where: { $0.key == "nodes" }) <= 1, root.members.count(where: { $0.key == "edges" }) <= 1
    {
      do { try self.init(json: json, streamedNodes: decoder.nodes, streamedEdges: decoder.edges) } catch {
        throw .invalid(error)
      }
      return
    }
    let whole: JSONValue
    do { whole = try JSONParser.parse(buffer) } catch { throw .syntax(error) }
    do { try self.init(json: whole) } catch { throw .invalid(error) }
  }

  /// How far the parser moves between two reports to `passed` (bytes), by default.
  package static let passedStep = 16 << 20

  /// Reads a document from parsed JSON.
  ///
  /// - Throws: every shape problem found, each naming the node or edge concerned.
  public init(json: JSONValue) throws(GraphValidationError) {
    try self.init(json: json, streamedNodes: nil, streamedEdges: nil)
  }

  /// `init(json:)`, with the `nodes` and `edges` arrays already decoded (their values in
  /// `json` are then empty placeholders) when given.
  init(json: JSONValue, streamedNodes: [FlowNode]?, streamedEdges: [FlowEdge]?) throws(GraphValidationError) {
    var reader = DocumentReader()
    guard let root = json.objectValue else {
      throw GraphValidationError(
        GraphIssue(
          .malformedDocument,
          "the document must be a JSON object with 'nodes' and 'edges', found \(json.typeName)"))
    }
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    var viewport = Viewport()
    var extra = JSONObject()
    var liveState = JSONObject()
    var subgraphs: [String: SubgraphDefinition] = [:]
    var imports: [String] = []
    var shape = DocumentShape()
    shape.order = ObjectShape.of(root) { _ in true }?.order
    // A repeated key counts once, with its last value (as `JSONObject` lookups and Foundation
    // read it). One dictionary of last positions keeps this linear in the number of keys.
    var lastPosition: [String: Int] = [:]
    lastPosition.reserveCapacity(root.members.count)
    for (position, member) in root.members.enumerated() { lastPosition[member.key] = position }
    for (position, member) in root.members.enumerated() where lastPosition[member.key] == position {
      switch member.key {
      case "nodes":
        guard let array = member.value.arrayValue else {
          reader.fail(nil, nil, "'nodes' must be an array, found \(member.value.typeName)"); continue
        }
        if let streamedNodes {
          nodes = streamedNodes
          continue
        }
        nodes.reserveCapacity(array.count)
        for (position, element) in array.enumerated() {
          if let node = reader.node(element, position: position) { nodes.append(node) }
        }
      case "edges":
        guard let array = member.value.arrayValue else {
          reader.fail(nil, nil, "'edges' must be an array, found \(member.value.typeName)"); continue
        }
        if let streamedEdges {
          edges = streamedEdges
          continue
        }
        edges.reserveCapacity(array.count)
        for (position, element) in array.enumerated() {
          if let edge = reader.edge(element, position: position) { edges.append(edge) }
        }
      case "viewport":
        if let value = reader.viewport(member.value) { viewport = value }
      case "flowRuntime":
        reader.checkFormat(member.value)
        if let saved = member.value.objectValue?["liveState"] {
          if let object = saved.objectValue {
            liveState = object
          } else {
            reader.fail(nil, nil, "'flowRuntime.liveState' must be an object, found \(saved.typeName)")
          }
        }
        if let runtime = member.value.objectValue {
          if let value = runtime["subgraphs"] {
            subgraphs = reader.subgraphs(value)
            shape.subgraphOrder = reader.subgraphOrder
          }
          if let value = runtime["imports"] { imports = reader.imports(value) }
          shape.runtime = ObjectShape.of(runtime) {
            ["formatVersion", "liveState", "subgraphs", "imports"].contains($0)
          }
        }
      default:
        // Keys are unique here: append instead of a keyed (linear) insertion.
        extra.members.append(member)
      }
    }
    if lastPosition["nodes"] == nil { reader.fail(nil, nil, "the document has no 'nodes' array") }
    if reader.problemCount > 0 {
      throw GraphValidationError(issues: reader.issues, unreportedCount: reader.unreportedCount)
    }
    self.init(
      nodes: nodes, edges: edges, viewport: viewport, extra: extra, liveState: liveState,
      subgraphs: subgraphs, imports: imports)
    self.shape = shape
  }
}
