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
  package init(jsonBuffer buffer: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)?,
               step: Int = FlowDocument.passedStep) throws(DocumentLoadError) {
    var directCount = 0
    try self.init(jsonBuffer: buffer, passed: passed, step: step, directCount: &directCount)
  }

  /// `init(jsonBuffer:passed:step:)`, telling how many nodes and edges were read straight from
  /// the bytes (`DocumentStreamDecoder`), for tests.
  package init(jsonBuffer buffer: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)?, step: Int,
               directCount: inout Int) throws(DocumentLoadError) {
    // Nodes and edges are decoded as the parser reaches them, so the JSON tree of a large
    // document is never held whole. A document with a problem is read again the plain way,
    // so that its problems are reported exactly as `init(json:)` reports them.
    var decoder = DocumentStreamDecoder(passed: passed, step: step)
    let json: JSONValue
    do { json = try JSONParser.parse(buffer, streaming: ["nodes", "edges"], into: &decoder) } catch { throw .syntax(error) }
    directCount = decoder.directCount
    let root = json.objectValue
    if decoder.reader.problemCount == 0, let root,
       root.members.count(where: { $0.key == "nodes" }) <= 1, root.members.count(where: { $0.key == "edges" }) <= 1 {
      do { try self.init(json: json, streamedNodes: decoder.nodes, streamedEdges: decoder.edges) } catch { throw .invalid(error) }
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
      throw GraphValidationError(GraphIssue(.malformedDocument,
        "the document must be a JSON object with 'nodes' and 'edges', found \(json.typeName)"))
    }
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    var viewport = Viewport()
    var extra = JSONObject()
    var liveState = JSONObject()
    var subgraphs: [String: SubgraphDefinition] = [:]
    var imports: [String] = []
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
          if let object = saved.objectValue { liveState = object }
          else { reader.fail(nil, nil, "'flowRuntime.liveState' must be an object, found \(saved.typeName)") }
        }
        if let runtime = member.value.objectValue {
          if let value = runtime["subgraphs"] { subgraphs = reader.subgraphs(value) }
          if let value = runtime["imports"] { imports = reader.imports(value) }
        }
      default:
        // Keys are unique here: append instead of a keyed (linear) insertion.
        extra.members.append(member)
      }
    }
    if lastPosition["nodes"] == nil { reader.fail(nil, nil, "the document has no 'nodes' array") }
    if reader.problemCount > 0 { throw GraphValidationError(issues: reader.issues, unreportedCount: reader.unreportedCount) }
    self.init(nodes: nodes, edges: edges, viewport: viewport, extra: extra, liveState: liveState,
              subgraphs: subgraphs, imports: imports)
  }
}

/// Reads document parts from JSON, collecting a problem for every malformed value.
///
/// Only the first `GraphValidationError.reportedIssueLimit` problems are kept; the rest are
/// counted, so a file of millions of bad entries is reported in bounded memory.
struct DocumentReader {
  var issues: [GraphIssue] = []
  /// Problems found beyond the kept `issues`.
  var unreportedCount = 0
  /// Every problem found so far, kept or counted.
  var problemCount: Int { issues.count + unreportedCount }

  mutating func fail(_ nodeID: String?, _ edgeID: String?, _ message: @autoclosure () -> String) {
    report(.malformedDocument, message(), nodeID: nodeID, edgeID: edgeID)
  }

  mutating func report(_ code: GraphIssue.Code, _ message: @autoclosure () -> String, nodeID: String? = nil, edgeID: String? = nil) {
    guard issues.count < GraphValidationError.reportedIssueLimit else {
      unreportedCount += 1
      return
    }
    issues.append(GraphIssue(code, message(), nodeIDs: nodeID.map { [$0] } ?? [], edgeID: edgeID))
  }

  mutating func checkFormat(_ value: JSONValue) {
    guard let object = value.objectValue else {
      fail(nil, nil, "'flowRuntime' must be an object, found \(value.typeName)"); return
    }
    guard let version = object["formatVersion"] else { return }
    // `integerValue` rejects fractions, non-finite values and anything outside `Int64` (1e300).
    guard let number = version.integerValue.map(Int.init), number >= 0 else {
      fail(nil, nil, "'flowRuntime.formatVersion' must be a whole number from 0 to \(Int.max), found \(version.serialized(options: []))")
      return
    }
    if number > FlowDocument.currentFormatVersion {
      report(.unsupportedFormatVersion,
        "format version \(number) is newer than this build reads (\(FlowDocument.currentFormatVersion)); upgrade FlowRuntime")
    }
    // Versions 0 and 1 share one layout: nothing to migrate yet.
  }

  mutating func node(_ value: JSONValue, position: Int) -> FlowNode? {
    guard let object = value.objectValue else {
      fail(nil, nil, "nodes[\(position)] must be an object, found \(value.typeName)"); return nil
    }
    // One pass over the members, the last of each key winning (as `object[key]` reads).
    var fields = NodeFields()
    for member in object.members { fields.take(member) }
    guard let id = fields.id?.stringValue else {
      fail(nil, nil, "nodes[\(position)] has no string 'id'"); return nil
    }
    let what = Subject.node(id)
    let before = problemCount
    var node = FlowNode(id: id, data: NodeSpec(kind: ""))
    if let data = fields.data {
      if let spec = nodeSpec(data, what: what, nodeID: id) { node.data = spec }
    } else {
      fail(id, nil, "\(what) has no 'data' (expected {\"kind\": …, \"params\": {…}})")
    }
    if let value = fields.position { node.position = point(value, key: "position", what: what, nodeID: id) }
    if let value = fields.size {
      let pair = point(value, key: "size", what: what, nodeID: id, shape: "[width, height]")
      node.size = CGSize(width: pair.x, height: pair.y)
    }
    if let value = fields.parentID, !value.isNull {
      node.parentID = string(value, key: "parentID", what: what, nodeID: id)
    }
    if let value = fields.phase { node.phase = phase(value, what: what, nodeID: id) }
    if let value = fields.persistence {
      node.persistence = enumeration(value, key: "persistence", what: what, nodeID: id) ?? .persistent
    }
    node.isSelected = bool(fields.isSelected, key: "isSelected", default: false, what: what, nodeID: id)
    node.isDraggable = bool(fields.isDraggable, key: "isDraggable", default: true, what: what, nodeID: id)
    node.acceptsChildren = bool(fields.acceptsChildren, key: "acceptsChildren", default: false, what: what, nodeID: id)
    if let value = fields.zIndex {
      // Whole numbers a double holds exactly (|z| ≤ 2^53), so the value survives a round trip.
      if let z = value.integerValue, z.magnitude <= 1 << 53 { node.zIndex = Int(z) }
      else { fail(id, nil, "\(what): 'zIndex' must be a whole number from -2^53 to 2^53, found \(value.numberValue == nil ? value.typeName : value.serialized(options: []))") }
    }
    if let value = fields.handles {
      if let array = value.arrayValue {
        node.handles = array.compactMap { handle($0, what: what, nodeID: id) }
      } else {
        fail(id, nil, "\(what): 'handles' must be an array, found \(value.typeName)")
      }
    }
    return problemCount == before ? node : nil
  }

  mutating func nodeSpec(_ value: JSONValue, what: Subject, nodeID: String) -> NodeSpec? {
    guard var object = value.objectValue else {
      fail(nodeID, nil, "\(what): 'data' must be an object like {\"kind\": \"add\"}, found \(value.typeName)"); return nil
    }
    // One pass over the members, the last of each key winning (as `object[key]` reads).
    var kindValue: JSONValue?, paramsValue: JSONValue?, labelValue: JSONValue?
    var hasOtherKeys = false
    for member in object.members {
      switch member.key {
      case "kind": kindValue = member.value
      case "params": paramsValue = member.value
      case "label": labelValue = member.value
      default: hasOtherKeys = true
      }
    }
    guard let kind = kindValue?.stringValue else {
      fail(nodeID, nil, "\(what): 'data' has no string 'kind'"); return nil
    }
    var spec = NodeSpec(kind: kind)
    if let params = paramsValue, !params.isNull {
      guard let paramsObject = params.objectValue else {
        fail(nodeID, nil, "\(what): 'data.params' must be an object, found \(params.typeName)"); return nil
      }
      spec.params = paramsObject
    }
    if let label = labelValue, !label.isNull {
      guard let text = label.stringValue else {
        fail(nodeID, nil, "\(what): 'data.label' must be a string, found \(label.typeName)"); return nil
      }
      spec.label = text
    }
    // Most specs hold only these keys: no copy of the object then.
    if hasOtherKeys {
      object["kind"] = nil
      object["params"] = nil
      object["label"] = nil
      spec.extra = object
    }
    return spec
  }

  mutating func edge(_ value: JSONValue, position: Int) -> FlowEdge? {
    guard let object = value.objectValue else {
      fail(nil, nil, "edges[\(position)] must be an object, found \(value.typeName)"); return nil
    }
    // One pass over the members, the last of each key winning (as `object[key]` reads).
    var fields = EdgeFields()
    for member in object.members { fields.take(member) }
    guard let id = fields.id?.stringValue else {
      fail(nil, nil, "edges[\(position)] has no string 'id'"); return nil
    }
    let what = Subject.edge(id)
    let before = problemCount
    let source = requiredString(fields.sourceNodeID, key: "sourceNodeID", what: what, edgeID: id)
    let target = requiredString(fields.targetNodeID, key: "targetNodeID", what: what, edgeID: id)
    var edge = FlowEdge(id: id, sourceNodeID: source ?? "", targetNodeID: target ?? "")
    edge.sourceHandleID = optionalString(fields.sourceHandleID, key: "sourceHandleID", what: what, edgeID: id)
    edge.targetHandleID = optionalString(fields.targetHandleID, key: "targetHandleID", what: what, edgeID: id)
    edge.parentID = optionalString(fields.parentID, key: "parentID", what: what, edgeID: id)
    edge.label = optionalString(fields.label, key: "label", what: what, edgeID: id)
    if let value = fields.pathType {
      if let text = value.stringValue, let type = FlowEdge.PathType(rawValue: text) { edge.pathType = type }
      else { fail(nil, id, "\(what): 'pathType' must be one of bezier, straight, smoothStep, simpleBezier") }
    }
    if let value = fields.isSelected {
      if let flag = value.boolValue { edge.isSelected = flag }
      else { fail(nil, id, "\(what): 'isSelected' must be true or false, found \(value.typeName)") }
    }
    return problemCount == before ? edge : nil
  }

  mutating func viewport(_ value: JSONValue) -> Viewport? {
    guard let object = value.objectValue else {
      fail(nil, nil, "'viewport' must be an object, found \(value.typeName)"); return nil
    }
    var viewport = Viewport()
    if let offset = object["offset"] { viewport.offset = point(offset, key: "viewport.offset", what: .text("the document"), nodeID: nil) }
    if let zoom = object["zoom"] {
      if let number = zoom.numberValue { viewport.zoom = number }
      else { fail(nil, nil, "'viewport.zoom' must be a number, found \(zoom.typeName)") }
    }
    return viewport
  }

  mutating func handle(_ value: JSONValue, what: Subject, nodeID: String) -> HandleDeclaration? {
    guard let object = value.objectValue, let id = object["id"]?.stringValue else {
      fail(nodeID, nil, "\(what): each handle must be an object with a string 'id'"); return nil
    }
    let handleWhat = Subject.handle(of: what, id)
    guard let type: HandleDeclaration.Kind = enumeration(object["type"] ?? .null, key: "type", what: handleWhat, nodeID: nodeID)
    else { return nil }
    var handle = HandleDeclaration(id: id, type: type, position: .center)
    if let position = object["position"] {
      guard let side: HandleDeclaration.Position = enumeration(position, key: "position", what: handleWhat, nodeID: nodeID)
      else { return nil }
      handle.position = side
    }
    if let area = object["connectionStartArea"], !area.isNull {
      handle.connectionStartArea = hitArea(area, what: handleWhat, nodeID: nodeID)
    }
    if let area = object["connectionTargetArea"], !area.isNull {
      handle.connectionTargetArea = hitArea(area, what: handleWhat, nodeID: nodeID)
    }
    return handle
  }

  mutating func hitArea(_ value: JSONValue, what: Subject, nodeID: String) -> HandleDeclaration.HitArea? {
    if let object = value.objectValue, object.count == 1, let member = object.members.first,
       let payload = member.value.objectValue {
      switch member.key {
      case "disabled": return .disabled
      case "node": return .node
      case "point": if let radius = payload["radius"]?.numberValue { return .point(radius: radius) }
      case "nodeBorder": if let width = payload["width"]?.numberValue { return .nodeBorder(width: width) }
      default: break
      }
    }
    fail(nodeID, nil, "\(what): a hit area must be {\"disabled\":{}}, {\"point\":{\"radius\":r}}, {\"node\":{}} or {\"nodeBorder\":{\"width\":w}}")
    return nil
  }

  mutating func phase(_ value: JSONValue, what: Subject, nodeID: String) -> FlowNode.Phase {
    if let object = value.objectValue, object.count == 1, let member = object.members.first {
      if member.key == "normal" { return .normal }
      if member.key == "draft", let text = member.value.objectValue?["_0"]?.stringValue,
         let validity = FlowNode.Phase.DraftValidity(rawValue: text) {
        return .draft(validity)
      }
    }
    fail(nodeID, nil, "\(what): 'phase' must be {\"normal\":{}} or {\"draft\":{\"_0\":\"neutral\"|\"valid\"|\"invalid\"}}")
    return .normal
  }

  mutating func point(_ value: JSONValue, key: String, what: Subject, nodeID: String?, shape: String = "[x, y]") -> CGPoint {
    if let array = value.arrayValue, array.count == 2, let x = array[0].numberValue, let y = array[1].numberValue {
      return CGPoint(x: x, y: y)
    }
    fail(nodeID, nil, "\(what): '\(key)' must be an array of two numbers \(shape), found \(value.typeName)")
    return .zero
  }

  mutating func string(_ value: JSONValue, key: String, what: Subject, nodeID: String) -> String? {
    if let text = value.stringValue { return text }
    fail(nodeID, nil, "\(what): '\(key)' must be a string, found \(value.typeName)")
    return nil
  }

  mutating func requiredString(_ value: JSONValue?, key: String, what: Subject, edgeID: String) -> String? {
    if let text = value?.stringValue { return text }
    fail(nil, edgeID, "\(what) has no string '\(key)'")
    return nil
  }

  mutating func optionalString(_ value: JSONValue?, key: String, what: Subject, edgeID: String) -> String? {
    guard let value, !value.isNull else { return nil }
    if let text = value.stringValue { return text }
    fail(nil, edgeID, "\(what): '\(key)' must be a string, found \(value.typeName)")
    return nil
  }

  mutating func bool(_ value: JSONValue?, key: String, default fallback: Bool, what: Subject, nodeID: String) -> Bool {
    guard let value else { return fallback }
    if let flag = value.boolValue { return flag }
    fail(nodeID, nil, "\(what): '\(key)' must be true or false, found \(value.typeName)")
    return fallback
  }

  mutating func enumeration<Choice: RawRepresentable<String>>(
    _ value: JSONValue, key: String, what: Subject, nodeID: String
  ) -> Choice? {
    if let text = value.stringValue, let choice = Choice(rawValue: text) { return choice }
    fail(nodeID, nil, "\(what): '\(key)' has an unknown value \(value.serialized(options: []))")
    return nil
  }
}

/// What a decoding message is about (`node 'a'`, `edge 'e1'`, …), made into text only when a
/// message is: decoding a valid document builds no message text.
enum Subject: CustomStringConvertible {
  case node(String)
  case edge(String)
  indirect case handle(of: Subject, String)
  case text(String)

  var description: String {
    switch self {
    case .node(let id): "node '\(id)'"
    case .edge(let id): "edge '\(id)'"
    case .handle(let owner, let id): "\(owner), handle '\(id)'"
    case .text(let text): text
    }
  }
}
