/// The graph a `FlowStore` holds, with dense integer indices: the pure state, without locking.
///
/// Nodes live in **node slots** and edges in **edge slots**, each an index into parallel arrays;
/// string ids exist only at the boundary (`nodeSlot`, `edgeSlot`). Slots are handed out in
/// insertion order (document order after a load), so listing the live slots lists the graph in
/// that order. Removing a node or an edge leaves a **tombstone**: the slot stays, empty, and only
/// the operation that undoes the removal revives it, so undo puts everything back where it was.
///
/// Invariants (checked by `_checkInvariants()`):
/// - `nodeSlot[id]` is the slot of the live node `id`, and every live node is in it; likewise
///   `edgeSlot` for edges. `nodeCount` and `edgeCount` count the live ones.
/// - A live node's `incoming` has one entry per input port of its signature: the slot of the
///   edge into that port, or -1. Its `outgoing` lists the slots of the edges out of it, sorted.
///   A tombstone has an empty signature and no edges.
/// - A live edge's `ends` name live nodes and ports that its handles resolve to
///   (`EdgeEndpointRule.resolve`); the edge appears in exactly those two lists.
/// - `order` is a topological order over all node slots, tombstones included: every live edge
///   goes forward.
///
/// Mutations (`StoreState+Mutations.swift`) check everything first and then apply
/// `StoreStep`s (`StoreState+Operations.swift`), each of which returns its inverse.
struct StoreState: Sendable {
  /// Where an edge is attached, by dense indices.
  struct EdgeEnds: Sendable, Hashable {
    var source: Int32
    var sourcePort: Int32
    var target: Int32
    var targetPort: Int32

    /// The ends of a tombstone.
    static let none = EdgeEnds(source: -1, sourcePort: -1, target: -1, targetPort: -1)
  }

  let catalog: any NodeCatalog
  var viewport: Viewport
  /// The document's top-level keys other than the graph, kept for `export()`.
  var extra: JSONObject

  /// `nodes[slot]`: the node, or `nil` for a tombstone.
  var nodes: [FlowNode?] = []
  /// `signatures[slot]`: the ports the node's spec resolved to (empty for a tombstone).
  var signatures: [NodeSignature] = []
  /// `incoming[slot][port]`: the slot of the edge into input `port`, or -1.
  var incoming: [[Int32]] = []
  /// `outgoing[slot]`: the slots of the edges out of the node, ascending.
  var outgoing: [[Int32]] = []
  var nodeSlot: [String: Int32] = [:]
  var nodeCount = 0

  /// `edges[slot]`: the edge, or `nil` for a tombstone.
  var edges: [FlowEdge?] = []
  var ends: [EdgeEnds] = []
  var edgeSlot: [String: Int32] = [:]
  var edgeCount = 0

  var order = TopologicalOrder()

  /// The catalog's payload for each node slot, as resolved when the state was built from a
  /// document; kept until an engine takes it (`FlowStore.observeResolved`) or a change is
  /// published (changes carry their own payloads), so empty most of the time.
  var initialPayloads: [(any Sendable)?] = []

  /// An empty graph.
  init(catalog: any NodeCatalog, viewport: Viewport = Viewport(), extra: JSONObject = JSONObject()) {
    self.catalog = catalog
    self.viewport = viewport
    self.extra = extra
  }

  /// The graph of a validated document: node and edge slots in document order.
  ///
  /// - Complexity: O(*n* + *m*).
  init(_ graph: ResolvedGraph, catalog: any NodeCatalog, payloads: [(any Sendable)?] = []) {
    let document = graph.document
    self.init(catalog: catalog, viewport: document.viewport, extra: document.extra)
    nodes = document.nodes
    signatures = graph.signatures
    incoming = graph.signatures.map { [Int32](repeating: -1, count: $0.inputs.count) }
    outgoing = [[Int32]](repeating: [], count: document.nodes.count)
    nodeSlot = graph.indexByID
    nodeCount = document.nodes.count
    edges = document.edges
    ends = [EdgeEnds](repeating: .none, count: document.edges.count)
    for edge in graph.edges {
      ends[Int(edge.documentIndex)] = EdgeEnds(source: edge.source, sourcePort: edge.sourcePort, target: edge.target,
                                               targetPort: edge.targetPort)
    }
    // Slots are document positions: validation's index of edge ids is the store's.
    edgeSlot = graph.edgeIndexByID
    if edgeSlot.count != document.edges.count {
      edgeSlot = [:]
      edgeSlot.reserveCapacity(document.edges.count)
      for (slot, edge) in document.edges.enumerated() { edgeSlot[edge.id] = Int32(slot) }
    }
    // Exact capacities; ascending slots, so every `outgoing` list comes out sorted.
    var outDegree = [Int32](repeating: 0, count: document.nodes.count)
    for end in ends { if end.source >= 0 { outDegree[Int(end.source)] += 1 } }
    for node in outgoing.indices where outDegree[node] > 0 { outgoing[node].reserveCapacity(Int(outDegree[node])) }
    for slot in document.edges.indices {
      let end = ends[slot]
      precondition(end.source >= 0, "Internal inconsistency: edge '\(document.edges[slot].id)' of a validated document did not resolve")
      incoming[Int(end.target)][Int(end.targetPort)] = Int32(slot)
      outgoing[Int(end.source)].append(Int32(slot))
    }
    edgeCount = document.edges.count
    order = TopologicalOrder(validOrder: graph.topologicalOrder)
    initialPayloads = payloads
  }

  // MARK: - Reading

  /// The live nodes, in slot order.
  var liveNodes: [FlowNode] {
    var result: [FlowNode] = []
    result.reserveCapacity(nodeCount)
    for case let node? in nodes { result.append(node) }
    return result
  }

  /// The live edges, in slot order.
  var liveEdges: [FlowEdge] {
    var result: [FlowEdge] = []
    result.reserveCapacity(edgeCount)
    for case let edge? in edges { result.append(edge) }
    return result
  }

  func node(id: String) -> FlowNode? { nodeSlot[id].flatMap { nodes[Int($0)] } }

  func edge(id: String) -> FlowEdge? { edgeSlot[id].flatMap { edges[Int($0)] } }

  /// The edges into the node, in the order of its input ports.
  func incomingEdges(of nodeID: String) -> [FlowEdge] {
    guard let slot = nodeSlot[nodeID] else { return [] }
    return incoming[Int(slot)].compactMap { $0 >= 0 ? edges[Int($0)] : nil }
  }

  /// The edges out of the node, in the order they were added.
  func outgoingEdges(of nodeID: String) -> [FlowEdge] {
    guard let slot = nodeSlot[nodeID] else { return [] }
    return outgoing[Int(slot)].compactMap { edges[Int($0)] }
  }

  /// The slots of every edge of node `slot`, ascending.
  func edgeSlots(of slot: Int32) -> [Int32] {
    (incoming[Int(slot)].filter { $0 >= 0 } + outgoing[Int(slot)]).sorted()
  }

  /// The whole graph as a document, transient nodes and selection included.
  func snapshot() -> FlowDocument {
    FlowDocument(nodes: liveNodes, edges: liveEdges, viewport: viewport, extra: extra)
  }

  /// The graph as SwiftFlow's `export()` writes it: no transient nodes nor edges touching them,
  /// nothing selected.
  func exported() -> FlowDocument {
    var document = FlowDocument(viewport: viewport, extra: extra)
    document.nodes.reserveCapacity(nodeCount)
    document.edges.reserveCapacity(edgeCount)
    for case var node? in nodes where node.persistence != .transient {
      node.isSelected = false
      document.nodes.append(node)
    }
    for (slot, edge) in edges.enumerated() {
      guard var edge, nodes[Int(ends[slot].source)]?.persistence != .transient,
            nodes[Int(ends[slot].target)]?.persistence != .transient else { continue }
      edge.isSelected = false
      document.edges.append(edge)
    }
    return document
  }

  /// The adjacency `TopologicalOrder` searches, optionally without one edge.
  func adjacency(excluding excludedEdge: Int32 = -1) -> StoreAdjacency {
    StoreAdjacency(incoming: incoming, outgoing: outgoing, ends: ends, excludedEdge: excludedEdge)
  }
}

/// The store's edges as `TopologicalOrder` walks them: successors through `outgoing`,
/// predecessors through `incoming`, never a scan of all edges.
struct StoreAdjacency: TopologicalAdjacency {
  let incoming: [[Int32]]
  let outgoing: [[Int32]]
  let ends: [StoreState.EdgeEnds]
  /// An edge slot to leave out (an edge being rewired), or -1.
  let excludedEdge: Int32

  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void) {
    for edge in outgoing[Int(node)] where edge != excludedEdge { body(ends[Int(edge)].target) }
  }

  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void) {
    for edge in incoming[Int(node)] where edge >= 0 && edge != excludedEdge { body(ends[Int(edge)].source) }
  }
}
