import Foundation

extension FlowDocument {
  /// The document as SwiftFlow writes it: every key present, `flowRuntime.formatVersion` set.
  ///
  /// Writing keeps meaning: every value (params, unknown keys, live state) is written with its
  /// objects' keys in the order read, and every object the document gave keys FlowRuntime does
  /// not know keeps them (see `ObjectShape`); the structural objects FlowRuntime made itself
  /// have sorted keys, as SwiftFlow's `encoded()` writes them.
  ///
  /// Nodes whose `handles` is `nil` are written without the key; call `withDerivedHandles(from:)`
  /// first so that SwiftFlow, which would otherwise assume its default pair, sees the kind's ports.
  public func jsonValue() -> JSONValue {
    var runtime: [JSONMember] = [JSONMember(key: "formatVersion", value: .integer(Int64(Self.currentFormatVersion)))]
    if !liveState.members.isEmpty { runtime.append(JSONMember(key: "liveState", value: .object(liveState))) }
    if !subgraphs.isEmpty {
      let definitions = subgraphs.map { JSONMember(key: $0.key, value: Self.json(of: $0.value)) }
      let order = shape.subgraphOrder.map { ObjectShape(order: $0) }
      runtime.append(JSONMember(key: "subgraphs", value: .object(ObjectShape.object(definitions, shape: order))))
    }
    if !imports.isEmpty { runtime.append(JSONMember(key: "imports", value: .array(imports.map(JSONValue.string)))) }
    var viewportMembers = [
      JSONMember(key: "offset", value: Self.json(viewport.offset.x, viewport.offset.y)),
      JSONMember(key: "zoom", value: Self.geometry(viewport.zoom))
    ]
    viewportMembers = ObjectShape.object(viewportMembers, shape: viewport.shape).members
    let root: [JSONMember] = [
      JSONMember(key: "nodes", value: .array(nodes.map(Self.json(of:)))),
      JSONMember(key: "edges", value: .array(edges.map(Self.json(of:)))),
      JSONMember(key: "viewport", value: .object(JSONObject(viewportMembers))),
      JSONMember(key: "flowRuntime", value: .object(ObjectShape.object(runtime, shape: shape.runtime)))
    ]
    return .object(ObjectShape.object(root, shape: Self.shape(extra, shape.order)))
  }

  /// Pretty-printed JSON as SwiftFlow's `encoded()` writes it, keeping meaning (see
  /// `jsonValue()`): whole `Double`s keep a fraction (`2.0`), so they read back as `Double`s.
  public func jsonString() -> String { jsonValue().serialized(options: [.prettyPrinted, .distinguishingDoubles]) }

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
    var known: [JSONMember] = []
    if let summary = definition.summary { known.append(JSONMember(key: "summary", value: .string(summary))) }
    known.append(JSONMember(key: "nodes", value: .array(definition.nodes.map(json(of:)))))
    known.append(JSONMember(key: "edges", value: .array(definition.edges.map(json(of:)))))
    return .object(ObjectShape.object(known, shape: shape(definition.extra, definition.keyOrder)))
  }

  /// The shape of an object whose unknown members and key order are kept apart.
  static func shape(_ unknown: JSONObject, _ order: [String]?) -> ObjectShape? {
    unknown.isEmpty && order == nil ? nil : ObjectShape(unknown: unknown, order: order)
  }

  /// A coordinate, zoom or size: an integer when whole (as SwiftFlow writes it; geometry has no
  /// integer/number distinction to keep), else a number.
  static func geometry(_ value: Double) -> JSONValue {
    if value.magnitude < 9_007_199_254_740_992, let whole = Int64(exactly: value), !(value == 0 && value.sign == .minus)
    {
      return .integer(whole)
    }
    return .number(value)
  }

  static func json(_ x: Double, _ y: Double) -> JSONValue { .array([geometry(x), geometry(y)]) }

  static func json(of node: FlowNode) -> JSONValue {
    var members = [
      JSONMember(key: "id", value: .string(node.id)),
      JSONMember(key: "position", value: json(node.position.x, node.position.y)),
      JSONMember(key: "size", value: json(node.size.width, node.size.height)),
      JSONMember(key: "data", value: json(of: node.data)),
      JSONMember(key: "phase", value: json(of: node.phase)),
      JSONMember(key: "persistence", value: .string(node.persistence.rawValue)),
      JSONMember(key: "isSelected", value: .bool(node.isSelected)),
      JSONMember(key: "isDraggable", value: .bool(node.isDraggable)),
      JSONMember(key: "acceptsChildren", value: .bool(node.acceptsChildren)),
      JSONMember(key: "zIndex", value: .integer(Int64(node.zIndex)))
    ]
    if let parentID = node.parentID { members.append(JSONMember(key: "parentID", value: .string(parentID))) }
    if let handles = node.handles { members.append(JSONMember(key: "handles", value: .array(handles.map(json(of:))))) }
    return .object(ObjectShape.object(members, shape: node.shape))
  }

  static func json(of spec: NodeSpec) -> JSONValue {
    var members = [
      JSONMember(key: "kind", value: .string(spec.kind)), JSONMember(key: "params", value: .object(spec.params))
    ]
    if let label = spec.label { members.append(JSONMember(key: "label", value: .string(label))) }
    return .object(ObjectShape.object(members, shape: shape(spec.extra, nil)))
  }

  static func json(of phase: FlowNode.Phase) -> JSONValue {
    switch phase {
    case .normal: .object(["normal": .object([:])])
    case .draft(let validity): .object(["draft": .object(["_0": .string(validity.rawValue)])])
    }
  }

  static func json(of handle: HandleDeclaration) -> JSONValue {
    var members = [
      JSONMember(key: "id", value: .string(handle.id)), JSONMember(key: "type", value: .string(handle.type.rawValue)),
      JSONMember(key: "position", value: .string(handle.position.rawValue))
    ]
    if let area = handle.connectionStartArea {
      members.append(JSONMember(key: "connectionStartArea", value: json(of: area)))
    }
    if let area = handle.connectionTargetArea {
      members.append(JSONMember(key: "connectionTargetArea", value: json(of: area)))
    }
    return .object(ObjectShape.object(members, shape: handle.shape))
  }

  static func json(of area: HandleDeclaration.HitArea) -> JSONValue {
    switch area {
    case .disabled: .object(["disabled": .object([:])])
    case .node: .object(["node": .object([:])])
    case .point(let radius): .object(["point": .object(["radius": geometry(radius)])])
    case .nodeBorder(let width): .object(["nodeBorder": .object(["width": geometry(width)])])
    }
  }

  static func json(of edge: FlowEdge) -> JSONValue {
    var members = [
      JSONMember(key: "id", value: .string(edge.id)),
      JSONMember(key: "sourceNodeID", value: .string(edge.sourceNodeID)),
      JSONMember(key: "targetNodeID", value: .string(edge.targetNodeID)),
      JSONMember(key: "pathType", value: .string(edge.pathType.rawValue)),
      JSONMember(key: "isSelected", value: .bool(edge.isSelected))
    ]
    if let handle = edge.sourceHandleID { members.append(JSONMember(key: "sourceHandleID", value: .string(handle))) }
    if let handle = edge.targetHandleID { members.append(JSONMember(key: "targetHandleID", value: .string(handle))) }
    if let parentID = edge.parentID { members.append(JSONMember(key: "parentID", value: .string(parentID))) }
    if let label = edge.label { members.append(JSONMember(key: "label", value: .string(label))) }
    return .object(ObjectShape.object(members, shape: edge.shape))
  }
}

extension HandleDeclaration {
  /// The handles FlowRuntime gives a node whose document declares none.
  public static func derived(from signature: NodeSignature) -> [HandleDeclaration] {
    signature.inputs.map { HandleDeclaration(id: $0.name, type: .target, position: .left) }
      + signature.outputs.map { HandleDeclaration(id: $0.name, type: .source, position: .right) }
  }
}
