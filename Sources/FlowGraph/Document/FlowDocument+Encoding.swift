import Foundation

extension FlowDocument {
  /// The document as SwiftFlow writes it: every key present, `flowRuntime.formatVersion` set.
  ///
  /// Nodes whose `handles` is `nil` are written without the key; call `withDerivedHandles(from:)`
  /// first so that SwiftFlow, which would otherwise assume its default pair, sees the kind's ports.
  public func jsonValue() -> JSONValue {
    var root = extra
    root["nodes"] = .array(nodes.map(Self.json(of:)))
    root["edges"] = .array(edges.map(Self.json(of:)))
    root["viewport"] = .object([
      "offset": Self.json(viewport.offset.x, viewport.offset.y),
      "zoom": .number(viewport.zoom),
    ])
    var runtime: JSONObject = ["formatVersion": .number(Double(Self.currentFormatVersion))]
    if !liveState.members.isEmpty { runtime["liveState"] = .object(liveState) }
    if !subgraphs.isEmpty {
      runtime["subgraphs"] = .object(JSONObject(subgraphs.sorted { $0.key < $1.key }.map {
        JSONMember(key: $0.key, value: Self.json(of: $0.value))
      }))
    }
    if !imports.isEmpty { runtime["imports"] = .array(imports.map(JSONValue.string)) }
    root["flowRuntime"] = .object(runtime)
    return .object(root)
  }

  /// Pretty-printed JSON with sorted keys, as SwiftFlow's `encoded()` writes it.
  public func jsonString() -> String { jsonValue().serialized() }

  /// Gives every node without declared handles the handles of its kind's ports (inputs as
  /// `target` handles on the left, outputs as `source` handles on the right; none for containers).
  ///
  /// - Parameter catalog: resolves each node's spec; nodes it cannot resolve are left unchanged.
  public func withDerivedHandles(from catalog: some NodeCatalog) -> FlowDocument {
    var copy = self
    for index in copy.nodes.indices where copy.nodes[index].handles == nil {
      if case .resolved(let signature) = catalog.resolve(copy.nodes[index].data) {
        copy.nodes[index].handles = HandleDeclaration.derived(from: signature)
      }
    }
    return copy
  }

  static func json(of definition: SubgraphDefinition) -> JSONValue {
    var object = definition.extra
    if let summary = definition.summary { object["summary"] = .string(summary) }
    object["nodes"] = .array(definition.nodes.map(json(of:)))
    object["edges"] = .array(definition.edges.map(json(of:)))
    return .object(object)
  }

  static func json(_ x: Double, _ y: Double) -> JSONValue { .array([.number(x), .number(y)]) }

  static func json(of node: FlowNode) -> JSONValue {
    var object: JSONObject = [
      "id": .string(node.id),
      "position": json(node.position.x, node.position.y),
      "size": json(node.size.width, node.size.height),
      "data": json(of: node.data),
      "phase": json(of: node.phase),
      "persistence": .string(node.persistence.rawValue),
      "isSelected": .bool(node.isSelected),
      "isDraggable": .bool(node.isDraggable),
      "acceptsChildren": .bool(node.acceptsChildren),
      "zIndex": .number(Double(node.zIndex)),
    ]
    if let parentID = node.parentID { object["parentID"] = .string(parentID) }
    if let handles = node.handles { object["handles"] = .array(handles.map(json(of:))) }
    return .object(object)
  }

  static func json(of spec: NodeSpec) -> JSONValue {
    var object = spec.extra
    object["kind"] = .string(spec.kind)
    object["params"] = .object(spec.params)
    if let label = spec.label { object["label"] = .string(label) }
    return .object(object)
  }

  static func json(of phase: FlowNode.Phase) -> JSONValue {
    switch phase {
    case .normal: .object(["normal": .object([:])])
    case .draft(let validity): .object(["draft": .object(["_0": .string(validity.rawValue)])])
    }
  }

  static func json(of handle: HandleDeclaration) -> JSONValue {
    var object: JSONObject = [
      "id": .string(handle.id), "type": .string(handle.type.rawValue), "position": .string(handle.position.rawValue),
    ]
    if let area = handle.connectionStartArea { object["connectionStartArea"] = json(of: area) }
    if let area = handle.connectionTargetArea { object["connectionTargetArea"] = json(of: area) }
    return .object(object)
  }

  static func json(of area: HandleDeclaration.HitArea) -> JSONValue {
    switch area {
    case .disabled: .object(["disabled": .object([:])])
    case .node: .object(["node": .object([:])])
    case .point(let radius): .object(["point": .object(["radius": .number(radius)])])
    case .nodeBorder(let width): .object(["nodeBorder": .object(["width": .number(width)])])
    }
  }

  static func json(of edge: FlowEdge) -> JSONValue {
    var object: JSONObject = [
      "id": .string(edge.id),
      "sourceNodeID": .string(edge.sourceNodeID),
      "targetNodeID": .string(edge.targetNodeID),
      "pathType": .string(edge.pathType.rawValue),
      "isSelected": .bool(edge.isSelected),
    ]
    if let handle = edge.sourceHandleID { object["sourceHandleID"] = .string(handle) }
    if let handle = edge.targetHandleID { object["targetHandleID"] = .string(handle) }
    if let parentID = edge.parentID { object["parentID"] = .string(parentID) }
    if let label = edge.label { object["label"] = .string(label) }
    return .object(object)
  }
}

extension HandleDeclaration {
  /// The handles FlowRuntime gives a node whose document declares none.
  public static func derived(from signature: NodeSignature) -> [HandleDeclaration] {
    signature.inputs.map { HandleDeclaration(id: $0.name, type: .target, position: .left) }
      + signature.outputs.map { HandleDeclaration(id: $0.name, type: .source, position: .right) }
  }
}
