import Foundation
import FlowGraph
import FlowRuntime

/// The commands that change the graph.
extension CalcSession {
  /// `node ID KIND [PARAM=JSON]...`
  func addNode(_ arguments: [String]) async throws(CalcError) {
    guard arguments.count >= 2 else { throw CalcError("usage: node ID KIND [PARAM=JSON]...") }
    let id = arguments[0], kind = arguments[1]
    guard context.registry.kind(named: kind) != nil || store.subgraphLibrary[kind] != nil else {
      throw CalcError(
        "unknown kind '\(kind)'" + Suggestion.hint(for: kind, among: context.kindNames)
          + " (see 'flow nodes')")
    }
    var params = JSONObject()
    for word in arguments.dropFirst(2) {
      let (name, value) = try Self.assignment(word)
      params[name] = value
    }
    let node = FlowNode(
      id: id, data: NodeSpec(kind: kind, params: params), acceptsChildren: kind == NodeSpec.groupKind,
      handles: kind == NodeSpec.groupKind ? [] : nil)
    try await change { () throws(GraphValidationError) in try store.addNode(node) }
    createdNodeIDs.insert(id)
  }

  /// `connect NODE.PORT NODE.PORT`: one batch removes the edge already in the input, if any,
  /// and adds the new one, so it is one change (one pass, one undo step).
  func connect(_ arguments: [String]) async throws(CalcError) {
    try expect(arguments, 2, 2, usage: "connect NODE.PORT NODE.PORT (an output, then an input)")
    let source = Self.endpoint(arguments[0]), target = Self.endpoint(arguments[1])
    _ = try requireNode(source.node)
    let targetNode = try requireNode(target.node)
    if let signature = signature(of: targetNode), signature.inputs.isEmpty, !signature.isContainer,
      target.port.flatMap(signature.parameterInput(named:)) == nil
    {
      // Said in the user's terms: a constant is set, not connected.
      let param = target.port ?? "PARAM"
      throw CalcError("a \(targetNode.data.kind) node has no inputs: use set \(targetNode.id) \(param)=VALUE")
    }
    if let port = target.port, let signature = signature(of: targetNode), signature.inputIndex(named: port) == nil,
      signature.outputIndex(named: port) != nil
    {
      throw CalcError(
        "'\(port)' is an output of node '\(targetNode.id)' (\(targetNode.data.kind)); connect into one of its inputs: "
          + signature.inputs.map(\.name).joined(separator: ", "))
    }
    let replaced = existingEdge(into: targetNode, port: target.port)
    var id = "e\(nextEdgeNumber)"
    while store.edge(id: id) != nil {
      nextEdgeNumber += 1
      id = "e\(nextEdgeNumber)"
    }
    nextEdgeNumber += 1
    let edge = FlowEdge(
      id: id, sourceNodeID: source.node, sourceHandleID: source.port,
      targetNodeID: target.node, targetHandleID: target.port)
    try await change(adding: (edge, "connect \(arguments[0]) \(arguments[1])")) { () throws(GraphValidationError) in
      try store.batch { (batch: inout FlowStore.Batch) throws(GraphValidationError) in
        if let replaced { try batch.removeEdge(id: replaced.id) }
        try batch.addEdge(edge)
      }
    }
  }

  /// `disconnect NODE.PORT` (an input).
  func disconnect(_ arguments: [String]) async throws(CalcError) {
    try expect(arguments, 1, 1, usage: "disconnect NODE.PORT (an input)")
    let target = Self.endpoint(arguments[0])
    let node = try requireNode(target.node)
    if let port = target.port, let signature = signature(of: node), signature.inputIndex(named: port) == nil,
      signature.parameterInput(named: port) == nil
    {
      throw CalcError(
        "node '\(node.id)' (\(node.data.kind)) has no input '\(port)'"
          + Suggestion.hint(for: port, among: signature.inputs.map(\.name) + signature.parameterInputs.map(\.name)))
    }
    guard let edge = existingEdge(into: node, port: target.port) else {
      throw CalcError("input '\(arguments[0])' is not connected")
    }
    try await change { () throws(GraphValidationError) in try store.removeEdge(id: edge.id) }
  }

  /// `set ID PARAM=JSON...`
  func set(_ arguments: [String]) async throws(CalcError) {
    guard arguments.count >= 2 else { throw CalcError("usage: set ID PARAM=JSON...") }
    var node = try requireNode(arguments[0])
    for word in arguments.dropFirst() {
      let (name, value) = try Self.assignment(word)
      node.data.params[name] = value
    }
    try await change { () throws(GraphValidationError) in try store.updateNode(node) }
  }

  /// `delete ID`: the node and its edges, one change.
  func delete(_ arguments: [String]) async throws(CalcError) {
    try expect(arguments, 1, 1, usage: "delete ID")
    _ = try requireNode(arguments[0])
    try await change { () throws(GraphValidationError) in try store.removeNode(id: arguments[0]) }
  }

  /// `undo` / `redo`.
  func step(_ arguments: [String], undo: Bool) async throws(CalcError) {
    try expect(arguments, 0, 0, usage: undo ? "undo" : "redo")
    let before = store.revision
    guard undo ? store.undo() : store.redo() else { throw CalcError(undo ? "nothing to undo" : "nothing to redo") }
    if store.revision != before { await printPass(after: store.revision) }
  }

  /// `save FILE`, atomically: what was loaded as it was read (key order, numbers, unknown keys:
  /// a load and a save write the same bytes), and each node made by `node` in full SwiftFlow
  /// form, with handles derived from its kind.
  func save(_ arguments: [String]) throws(CalcError) {
    try expect(arguments, 1, 1, usage: "save FILE")
    var document = store.export()
    let derived = document.withDerivedHandles(from: context.registry)
    for index in document.nodes.indices where createdNodeIDs.contains(document.nodes[index].id) {
      document.nodes[index].handles = derived.nodes[index].handles
    }
    do {
      try AtomicFileWriter().write(
        Array((document.jsonString() + "\n").utf8), to: FileAccessPolicy.absolutePath(arguments[0]))
    } catch {
      throw CalcError("cannot write \(arguments[0]): \(error)")
    }
    context.write("saved \(document.nodes.count) node\(document.nodes.count == 1 ? "" : "s") to \(arguments[0])\n")
  }

  /// `load FILE`: replaces the graph (one change, undoable); every node is recomputed.
  func load(_ arguments: [String]) async throws(CalcError) {
    try expect(arguments, 1, 1, usage: "load FILE")
    let document: FlowDocument
    do { document = try DocumentLoading.document(arguments[0]) } catch {
      // `FILE: error: reason` → `FILE: reason` (the line already starts with `error: `).
      throw CalcError(error.lines.map { $0.replacingOccurrences(of: ": error: ", with: ": ") }.joined(separator: "\n"))
    }
    let registry = DocumentLoading.importing(arguments[0], registry: context.registry)
    try await change { () throws(GraphValidationError) in
      let imported = try SubgraphImports.sources(
        of: document, folder: registry.environment.documentFolder,
        path: FileAccessPolicy.absolutePath(arguments[0]), policy: registry.environment.fileAccess)
      try store.load(document, imported: imported)
    }
  }

  /// The edge into `port` of `node` (`nil` port: the node's only input).
  func existingEdge(into node: FlowNode, port: String?) -> FlowEdge? {
    let inputs = signature(of: node)?.inputs.map(\.name) ?? []
    let wanted = port ?? (inputs.count == 1 ? inputs[0] : nil)
    return store.incomingEdges(of: node.id).first { edge in
      let handle = edge.targetHandleID ?? (inputs.count == 1 ? inputs[0] : nil)
      return handle != nil && handle == wanted
    }
  }
}
