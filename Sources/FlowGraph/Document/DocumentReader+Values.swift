import Foundation

/// Handles, hit areas, phases, points, strings, booleans and enumerations, each read with a
/// problem named for its node or edge when malformed.
extension DocumentReader {
  mutating func handle(_ value: JSONValue, what: Subject, nodeID: String) -> HandleDeclaration? {
    guard let object = value.objectValue, let id = object["id"]?.stringValue else {
      fail(nodeID, nil, "\(what): each handle must be an object with a string 'id'"); return nil
    }
    let handleWhat = Subject.handle(of: what, id)
    guard
      let type: HandleDeclaration.Kind = enumeration(
        object["type"] ?? .null, key: "type", what: handleWhat, nodeID: nodeID)
    else { return nil }
    var handle = HandleDeclaration(id: id, type: type, position: .center)
    handle.shape = ObjectShape.of(object) {
      ["id", "type", "position", "connectionStartArea", "connectionTargetArea"].contains($0)
    }
    if let position = object["position"] {
      guard
        let side: HandleDeclaration.Position = enumeration(position, key: "position", what: handleWhat, nodeID: nodeID)
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
      let payload = member.value.objectValue
    {
      switch member.key {
      case "disabled": return .disabled
      case "node": return .node
      case "point": if let radius = payload["radius"]?.numberValue { return .point(radius: radius) }
      case "nodeBorder": if let width = payload["width"]?.numberValue { return .nodeBorder(width: width) }
      default: break
      }
    }
    fail(
      nodeID, nil,
      "\(what): a hit area must be {\"disabled\":{}}, {\"point\":{\"radius\":r}}, {\"node\":{}} or {\"nodeBorder\":{\"width\":w}}"
    )
    return nil
  }

  mutating func phase(_ value: JSONValue, what: Subject, nodeID: String) -> FlowNode.Phase {
    if let object = value.objectValue, object.count == 1, let member = object.members.first {
      if member.key == "normal" { return .normal }
      if member.key == "draft", let text = member.value.objectValue?["_0"]?.stringValue,
        let validity = FlowNode.Phase.DraftValidity(rawValue: text)
      {
        return .draft(validity)
      }
    }
    fail(
      nodeID, nil, "\(what): 'phase' must be {\"normal\":{}} or {\"draft\":{\"_0\":\"neutral\"|\"valid\"|\"invalid\"}}")
    return .normal
  }

  mutating func point(_ value: JSONValue, key: String, what: Subject, nodeID: String?, shape: String = "[x, y]")
    -> CGPoint
  {
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
