/// What a `FlowStore` knows of subgraphs (Reference.md, "Subgraphs"): its definitions, validated, and the
/// document's own instance nodes as written. The store's graph is the flattened one (what
/// engines evaluate); `FlowStore.export()` folds it back into the document as written.
struct StoreSubgraphs: Sendable {
  /// The store's own definitions (those of the document, added or replaced since).
  var definitions: [String: SubgraphDefinition] = [:]
  /// Definitions from elsewhere (a host's imports), read-only to the store.
  var imported: [SubgraphSource] = []
  var library = SubgraphLibrary()
  /// The top-level instance nodes as written, by id.
  var instances: [String: FlowNode] = [:]

  var isEmpty: Bool { library.isEmpty && instances.isEmpty }

  init() {}

  init(_ expanded: ExpandedDocument, imported: [SubgraphSource]) {
    definitions = expanded.document.subgraphs
    self.imported = imported
    library = expanded.library
    for node in expanded.document.nodes where expanded.library[node.data.kind] != nil { instances[node.id] = node }
  }

  /// A top-level instance's id and kind (what a definition edit needs of most of them).
  struct Instance: Sendable {
    var id: String
    var kind: String
  }

  /// The top-level instances whose definition is `name` or uses it, at any depth, in no
  /// particular order (`StoreState.inSlotOrder` puts them in the store's): ids and kinds only,
  /// no node copied.
  func instances(using name: String, in libraries: [SubgraphLibrary]) -> [Instance] {
    var memo: [String: Bool] = [:]
    func uses(_ kind: String, _ depth: Int) -> Bool {
      if kind == name { return true }
      if let known = memo[kind] { return known }
      guard depth < SubgraphLibrary.maximumDepth + 2 else { return false }
      let result = libraries.contains { ($0.uses[kind] ?? []).contains { uses($0, depth + 1) } }
      memo[kind] = result
      return result
    }
    var result: [Instance] = []
    result.reserveCapacity(instances.count)
    for index in instances.indices {
      let kind = instances.values[index].data.kind
      if uses(kind, 0) { result.append(Instance(id: instances.values[index].id, kind: kind)) }
    }
    return result
  }

  /// `node` as written: an instance node as the document writes it (at the node's place).
  func written(_ node: FlowNode) -> FlowNode {
    guard let instance = instances[node.id] else { return node }
    var written = instance
    written.position = node.position
    written.size = node.size
    written.isSelected = node.isSelected
    return written
  }

  /// `document` folded: inlined nodes and edges dropped, instances as written, edges into
  /// their ports as written, the definitions added.
  func folded(_ document: FlowDocument) -> FlowDocument {
    guard !isEmpty else { return document }
    var result = document
    result.subgraphs = definitions
    func owner(_ id: String) -> String? {
      guard let slash = id.firstIndex(of: "/") else { return nil }
      let head = String(id[..<slash])
      return instances[head] != nil ? head : nil
    }
    result.nodes = document.nodes.compactMap { node in
      if let instance = instances[node.id] {
        var written = instance
        written.position = node.position
        written.size = node.size
        written.isSelected = false
        return written
      }
      return owner(node.id) == nil ? node : nil
    }
    result.edges = document.edges.compactMap { edge in
      if owner(edge.id) != nil { return nil }
      guard let instanceID = owner(edge.targetNodeID), let instance = instances[instanceID],
        let subgraph = library[instance.data.kind]
      else { return edge }
      let inner = String(edge.targetNodeID.dropFirst(instanceID.count + 1))
      guard let port = subgraph.inputs.first(where: { $0.nodeID == inner }) else { return edge }
      var written = edge
      written.targetNodeID = instanceID
      written.targetHandleID = port.name
      return written
    }
    return result
  }
}
