/// The members of a node object the reader looks at, gathered in one pass (the last member of
/// each key wins, as `JSONObject`'s keyed lookup reads it; other keys are kept apart).
struct NodeFields {
  var id: JSONValue?
  var data: JSONValue?
  var position: JSONValue?
  var size: JSONValue?
  var parentID: JSONValue?
  var phase: JSONValue?
  var persistence: JSONValue?
  var isSelected: JSONValue?
  var isDraggable: JSONValue?
  var acceptsChildren: JSONValue?
  var zIndex: JSONValue?
  var handles: JSONValue?

  /// Keeps `member`'s value if its key is one of the fields.
  ///
  /// - Returns: whether it is (a document's other keys are kept in the element's shape).
  @inline(__always) @discardableResult
  mutating func take(_ member: JSONMember) -> Bool {
    // The keys every node has come first: most members need one or two comparisons.
    switch member.key {
    case "id": id = member.value
    case "position": position = member.value
    case "data": data = member.value
    case "size": size = member.value
    case "parentID": parentID = member.value
    case "phase": phase = member.value
    case "persistence": persistence = member.value
    case "isSelected": isSelected = member.value
    case "isDraggable": isDraggable = member.value
    case "acceptsChildren": acceptsChildren = member.value
    case "zIndex": zIndex = member.value
    case "handles": handles = member.value
    default: return false
    }
    return true
  }
}

/// The members of an edge object the reader looks at, gathered in one pass (the last member of
/// each key wins; other keys are ignored).
struct EdgeFields {
  var id: JSONValue?
  var sourceNodeID: JSONValue?
  var targetNodeID: JSONValue?
  var sourceHandleID: JSONValue?
  var targetHandleID: JSONValue?
  var parentID: JSONValue?
  var label: JSONValue?
  var pathType: JSONValue?
  var isSelected: JSONValue?

  /// Keeps `member`'s value if its key is one of the fields.
  ///
  /// - Returns: whether it is (a document's other keys are kept in the element's shape).
  @inline(__always) @discardableResult
  mutating func take(_ member: JSONMember) -> Bool {
    switch member.key {
    case "id": id = member.value
    case "sourceNodeID": sourceNodeID = member.value
    case "targetNodeID": targetNodeID = member.value
    case "targetHandleID": targetHandleID = member.value
    case "sourceHandleID": sourceHandleID = member.value
    case "parentID": parentID = member.value
    case "label": label = member.value
    case "pathType": pathType = member.value
    case "isSelected": isSelected = member.value
    default: return false
    }
    return true
  }
}

extension NodeFields {
  /// Whether a node object's `key` is one of the fields.
  func knows(_ key: String) -> Bool {
    var probe = self
    return probe.take(JSONMember(key: key, value: .null))
  }
}

extension EdgeFields {
  /// Whether an edge object's `key` is one of the fields.
  func knows(_ key: String) -> Bool {
    var probe = self
    return probe.take(JSONMember(key: key, value: .null))
  }
}
