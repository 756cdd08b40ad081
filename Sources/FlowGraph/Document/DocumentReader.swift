import Foundation

/// Reads document parts from JSON, collecting a problem for every malformed value.
///
/// Only the first `GraphValidationError.reportedIssueLimit` problems are kept; the rest are
/// counted, so a file of millions of bad entries is reported in bounded memory.
struct DocumentReader {
  var issues: [GraphIssue] = []
  /// Problems found beyond the kept `issues`.
  var unreportedCount = 0
  /// The order of the last definitions read (`subgraphs(_:)`), when not sorted.
  var subgraphOrder: [String]?
  /// Every problem found so far, kept or counted.
  var problemCount: Int { issues.count + unreportedCount }

  mutating func fail(_ nodeID: String?, _ edgeID: String?, _ message: @autoclosure () -> String) {
    report(.malformedDocument, message(), nodeID: nodeID, edgeID: edgeID)
  }

  mutating func report(
    _ code: GraphIssue.Code, _ message: @autoclosure () -> String, nodeID: String? = nil, edgeID: String? = nil
  ) {
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
      fail(
        nil, nil,
        "'flowRuntime.formatVersion' must be a whole number from 0 to \(Int.max), found \(version.serialized(options: []))"
      )
      return
    }
    if number > FlowDocument.currentFormatVersion {
      report(
        .unsupportedFormatVersion,
        "format version \(number) is newer than this build reads (\(FlowDocument.currentFormatVersion)); upgrade FlowRuntime"
      )
    }
    // Versions 0 and 1 share one layout: nothing to migrate yet.
  }

  mutating func node(_ value: JSONValue, position: Int) -> FlowNode? {
    guard let object = value.objectValue else {
      fail(nil, nil, "nodes[\(position)] must be an object, found \(value.typeName)"); return nil
    }
    // One pass over the members, the last of each key winning (as `object[key]` reads).
    var fields = NodeFields()
    var hasOtherKeys = false
    for member in object.members where !fields.take(member) { hasOtherKeys = true }
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
      if let z = value.integerValue, z.magnitude <= 1 << 53 {
        node.zIndex = Int(z)
      } else {
        fail(
          id, nil,
          "\(what): 'zIndex' must be a whole number from -2^53 to 2^53, found \(value.numberValue == nil ? value.typeName : value.serialized(options: []))"
        )
      }
    }
    if let value = fields.handles {
      if let array = value.arrayValue {
        node.handles = array.compactMap { handle($0, what: what, nodeID: id) }
      } else {
        fail(id, nil, "\(what): 'handles' must be an array, found \(value.typeName)")
      }
    }
    if hasOtherKeys {
      node.shape = ObjectShape.of(object, keepingOrder: false) { NodeFields().knows($0) }
    }
    return problemCount == before ? node : nil
  }

  mutating func nodeSpec(_ value: JSONValue, what: Subject, nodeID: String) -> NodeSpec? {
    guard var object = value.objectValue else {
      fail(nodeID, nil, "\(what): 'data' must be an object like {\"kind\": \"add\"}, found \(value.typeName)");
      return nil
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
    if let text = value.stringValue { return edge(written: text, position: position) }
    guard let object = value.objectValue else {
      fail(
        nil, nil,
        "edges[\(position)] must be an object or a string \"source.port -> target.port\", found \(value.typeName)")
      return nil
    }
    // One pass over the members, the last of each key winning (as `object[key]` reads).
    var fields = EdgeFields()
    var hasOtherKeys = false
    for member in object.members where !fields.take(member) { hasOtherKeys = true }
    let id: String
    if let value = fields.id {
      guard let text = value.stringValue else {
        fail(nil, nil, "edges[\(position)]: 'id' must be a string, found \(value.typeName)"); return nil
      }
      id = text
    } else if let source = fields.sourceNodeID?.stringValue, let target = fields.targetNodeID?.stringValue {
      // Lenient for people: a missing id is generated from the ends (written back in full).
      id = FlowEdge.generatedID(
        source: source, sourceHandle: fields.sourceHandleID?.stringValue,
        target: target, targetHandle: fields.targetHandleID?.stringValue)
    } else {
      fail(nil, nil, "edges[\(position)] has no string 'id' and no 'sourceNodeID' and 'targetNodeID' to make one from");
      return nil
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
      if let text = value.stringValue, let type = FlowEdge.PathType(rawValue: text) {
        edge.pathType = type
      } else {
        fail(nil, id, "\(what): 'pathType' must be one of bezier, straight, smoothStep, simpleBezier")
      }
    }
    if let value = fields.isSelected {
      if let flag = value.boolValue {
        edge.isSelected = flag
      } else {
        fail(nil, id, "\(what): 'isSelected' must be true or false, found \(value.typeName)")
      }
    }
    if hasOtherKeys {
      edge.shape = ObjectShape.of(object, keepingOrder: false) { EdgeFields().knows($0) }
    }
    return problemCount == before ? edge : nil
  }

  /// An edge written as one string (`"a.result -> b.x"`).
  mutating func edge(written text: String, position: Int) -> FlowEdge? {
    guard let edge = FlowEdge(written: text) else {
      fail(
        nil, nil,
        "edges[\(position)]: '\(text.controlEscaped)' is not an edge; write \"source.port -> target.port\" (the ports may be left out where a node has one)"
      )
      return nil
    }
    return edge
  }

  mutating func viewport(_ value: JSONValue) -> Viewport? {
    guard let object = value.objectValue else {
      fail(nil, nil, "'viewport' must be an object, found \(value.typeName)"); return nil
    }
    var viewport = Viewport()
    viewport.shape = ObjectShape.of(object) { $0 == "offset" || $0 == "zoom" }
    if let offset = object["offset"] {
      viewport.offset = point(offset, key: "viewport.offset", what: .text("the document"), nodeID: nil)
    }
    if let zoom = object["zoom"] {
      if let number = zoom.numberValue {
        viewport.zoom = number
      } else {
        fail(nil, nil, "'viewport.zoom' must be a number, found \(zoom.typeName)")
      }
    }
    return viewport
  }
}
