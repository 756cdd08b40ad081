import FlowGraph
import FlowHTTP
import FlowRuntime

/// Shaping the graph from the page: `POST /add`, `/connect`, `/delete`. Each is one store
/// mutation (one pass, one undo step), validated by the store like every change: a cycle, a
/// type mismatch or an unknown kind is refused with its message and changes nothing.
extension ServeSession {
  /// `{"kind": K, "params": {name: text}}`: a node of kind K with a fresh id (`k1`, `k2`, …
  /// after the kind's name) and the params given, each read as the page's fields read it
  /// (the palette asks for a kind's required params); the kind's other params get their
  /// defaults, written out so the page shows them as fields.
  func add(_ body: [UInt8]) -> HTTPResponse {
    guard case .object(let object)? = try? JSONValue.parse(body), case .string(let kind)? = object["kind"],
      !kind.isEmpty,
      kind.utf8.count <= 200
    else {
      return Self.json(400, ["error": "an addition is {\"kind\": name, \"params\": {name: text}}"])
    }
    let store = engine.store
    var params = JSONObject()
    if case .object(let sent)? = object["params"] {
      let declarations = registry.kind(named: kind)?.parameters ?? []
      for member in sent.members {
        guard let declaration = declarations.first(where: { $0.name == member.key }) else {
          return Self.rejected(["error": .string("kind '\(kind)' has no param '\(member.key)'")])
        }
        switch Self.value(
          member.value, for: ServeEditable.Field(name: member.key, type: declaration.type, isInput: false))
        {
        case .success(let value): params[member.key] = value
        case .failure(let problem): return Self.rejected(["error": .string("\(kind).\(member.key): \(problem.text)")])
        }
      }
    }
    // Every other param with a default is written out, so the page shows it as a field (a new
    // `number` node gets `value: 0` to edit): the same meaning, made visible.
    for declaration in registry.kind(named: kind)?.parameters ?? []
    where params[declaration.name] == nil && ServeEditable.editableTypes.contains(declaration.type) {
      if let value = declaration.defaultValue { params[declaration.name] = value.jsonValue }
    }
    var number = 1
    let stem = kind.prefix(1).lowercased() + kind.dropFirst()
    while store.node(id: "\(stem)\(number)") != nil { number += 1 }
    let id = "\(stem)\(number)"
    do {
      try store.addNode(FlowNode(id: id, data: NodeSpec(kind: kind, params: params)))
    } catch {
      return Self.rejected(["error": .string(error.description)])
    }
    return Self.json(200, ["ok": true, "id": .string(id), "revision": .integer(Int64(store.revision))])
  }

  /// `{"source": id, "sourcePort": p, "target": id, "targetPort": p}`: an edge from an output to
  /// an input; an edge already in that input is replaced in the same change (as `calc`'s
  /// `connect`). Connecting an input to itself through the graph is refused as the cycle it makes.
  func connect(_ body: [UInt8]) -> HTTPResponse {
    guard case .object(let object)? = try? JSONValue.parse(body),
      case .string(let source)? = object["source"], case .string(let sourcePort)? = object["sourcePort"],
      case .string(let target)? = object["target"], case .string(let targetPort)? = object["targetPort"]
    else {
      return Self.json(400, ["error": "a connection is {\"source\", \"sourcePort\", \"target\", \"targetPort\"}"])
    }
    let store = engine.store
    guard store.node(id: source) != nil else {
      return Self.rejected(["error": .string("there is no node '\(source)'")])
    }
    guard store.node(id: target) != nil else {
      return Self.rejected(["error": .string("there is no node '\(target)'")])
    }
    let replaced = store.incomingEdges(of: target).first { $0.targetHandleID == targetPort }
    var id = "\(source).\(sourcePort)->\(target).\(targetPort)"
    var suffix = 2
    while store.edge(id: id) != nil, id != replaced?.id {
      id = "\(source).\(sourcePort)->\(target).\(targetPort) \(suffix)"
      suffix += 1
    }
    let edge = FlowEdge(
      id: id, sourceNodeID: source, sourceHandleID: sourcePort, targetNodeID: target, targetHandleID: targetPort)
    do {
      try store.batch { (batch: inout FlowStore.Batch) throws(GraphValidationError) in
        if let replaced { try batch.removeEdge(id: replaced.id) }
        try batch.addEdge(edge)
      }
    } catch {
      return Self.rejected(["error": .string(error.description)])
    }
    return Self.json(200, ["ok": true, "edge": .string(id), "revision": .integer(Int64(store.revision))])
  }

  /// `{"node": id}` (the node and its edges) or `{"edge": id}`.
  func delete(_ body: [UInt8]) -> HTTPResponse {
    guard case .object(let object)? = try? JSONValue.parse(body) else {
      return Self.json(400, ["error": "a deletion is {\"node\": id} or {\"edge\": id}"])
    }
    let store = engine.store
    do {
      switch (object["node"], object["edge"]) {
      case (.string(let id)?, nil): try store.removeNode(id: id)
      case (nil, .string(let id)?): try store.removeEdge(id: id)
      default: return Self.json(400, ["error": "a deletion is {\"node\": id} or {\"edge\": id}"])
      }
    } catch {
      return Self.rejected(["error": .string(error.description)])
    }
    return Self.json(200, ["ok": true, "revision": .integer(Int64(store.revision))])
  }

  /// The kinds the palette offers (the registry's and the document's subgraph kinds, by name),
  /// each with the params it requires and their types, which the palette asks for.
  func paletteKinds() -> [(kind: String, required: [(name: String, type: String)])] {
    let kinds = registry.allKinds.map { kind in
      (kind: kind.name, required: kind.parameters.filter(\.isRequired).map { (name: $0.name, type: $0.type.rawValue) })
    }
    let subgraphs = engine.store.subgraphLibrary.names.map { (kind: $0, required: [(name: String, type: String)]()) }
    return (kinds + subgraphs).sorted { $0.kind < $1.kind }
  }
}
