/// The graph a `FlowStore` holds, with dense integer indices: the pure state, without locking.
///
/// Nodes live in **node slots** and edges in **edge slots**, each an index into parallel arrays;
/// string ids exist only at the boundary (`nodeIndex`, `edgeIndex`, tables that compare against
/// the ids the slots hold). Slots are handed out in insertion order (document order after a
/// load), so listing the live slots lists the graph in that order. Removing a node or an edge
/// leaves a **tombstone**: the slot stays, empty, and only the operation that undoes the removal
/// revives it, so undo puts everything back where it was.
///
/// An edge is held as a compact record, not as a `FlowEdge`: its id, its `ends` (node slots and
/// ports), and `edgeFlags` (path type, selection, and whether each handle was given, a given
/// handle being the name of the port it resolved to); the rare `parentID` and `label` live in
/// `edgeExtras`. `edge(at:)` rebuilds the `FlowEdge`, node ids coming from the node slots.
///
/// Invariants (checked by `_checkInvariants()`):
/// - `nodeIndex` indexes exactly the live node slots under their ids, `edgeIndex` the live edge
///   slots. `nodeCount` and `edgeCount` count the live ones.
/// - A live node's input run (`lists`) has one entry per input port of its signature: the slot of
///   the edge into that port, or -1. Its outgoing run lists the slots of the edges out of it,
///   sorted. A tombstone has an empty signature and no edges.
/// - A live edge's `ends` name live nodes and ports that its handles resolve to
///   (`EdgeEndpointRule.resolve`); the edge appears in exactly those two lists. A tombstone's
///   ends are `.none`, its id empty, and it has no extras.
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
  /// The document's key orders and `flowRuntime`'s unknown keys, kept for `export()`.
  var shape = DocumentShape()

  /// `nodes[slot]`: the node, or `nil` for a tombstone.
  var nodes: [FlowNode?] = []
  /// `signatures[slot]`: the ports the node's spec resolved to (empty for a tombstone).
  var signatures: [NodeSignature] = []
  /// Each node's inputs and outgoing edges.
  var lists = StoreEdgeLists()
  /// The live node slots by id (`nodes[slot]!.id`).
  var nodeIndex = IDTable()
  var nodeCount = 0

  /// `edgeIDs[slot]`: the edge's id, empty for a tombstone.
  var edgeIDs: [String] = []
  /// `ends[slot]`: where the edge is attached, `.none` for a tombstone.
  var ends: [EdgeEnds] = []
  /// `edgeFlags[slot]`: the edge's path type, selection and which handles it names.
  var edgeFlags: [EdgeFlags] = []
  /// The `parentID` and `label` of the edges that have one, by edge slot.
  var edgeExtras: [Int32: EdgeExtra] = [:]
  /// The live edge slots by id (`edgeIDs[slot]`).
  var edgeIndex = IDTable()
  var edgeCount = 0

  var order = TopologicalOrder()
  /// Which slots hold an inner node as the last bulk definition edit wrote it (`StoreStamps`).
  var stamps = StoreStamps()

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
    shape = document.shape
    nodes = document.nodes
    signatures = graph.signatures
    nodeCount = document.nodes.count
    // Hashed and compared in the validated graph's id column (16 bytes a node, not 88).
    let nodeIDs = graph.nodeIDs
    nodeIndex = IDTable(slots: 0..<Int32(nodeIDs.count), count: nodeIDs.count) { nodeIDs[Int($0)] }
    var outDegree = [Int32](repeating: 0, count: document.nodes.count)
    ends = [EdgeEnds](repeating: .none, count: document.edges.count)
    for edge in graph.edges {
      ends[Int(edge.documentIndex)] = EdgeEnds(
        source: edge.source, sourcePort: edge.sourcePort, target: edge.target,
        targetPort: edge.targetPort)
      outDegree[Int(edge.source)] += 1
    }
    edgeIDs.reserveCapacity(document.edges.count)
    edgeFlags.reserveCapacity(document.edges.count)
    // Exact capacities; ascending slots, so every outgoing list comes out sorted.
    lists = StoreEdgeLists(inputCounts: graph.signatures.map { $0.inputs.count }, outDegrees: outDegree)
    for (slot, edge) in document.edges.enumerated() {
      let end = ends[slot]
      precondition(end.source >= 0, "Internal inconsistency: edge '\(edge.id)' of a validated document did not resolve")
      let flags = self.flags(of: edge, ends: end)
      edgeIDs.append(edge.id)
      edgeFlags.append(flags)
      if let extra = EdgeExtra(edge) { edgeExtras[Int32(slot)] = extra }
      lists.setInput(of: end.target, port: end.targetPort, to: Int32(slot))
      lists.insertOutput(Int32(slot), of: end.source)
    }
    edgeCount = document.edges.count
    let edgeIDs = self.edgeIDs
    edgeIndex = IDTable(slots: 0..<Int32(edgeIDs.count), count: edgeIDs.count) { edgeIDs[Int($0)] }
    order = TopologicalOrder(validOrder: graph.topologicalOrder)
    initialPayloads = payloads
  }

  // MARK: - Reading

  /// The slot of the live node `id`.
  func nodeSlot(_ id: String) -> Int32? { nodeIndex.slot(of: id) { nodes[Int($0)]?.id } }

  /// The slot of the live edge `id`.
  func edgeSlot(_ id: String) -> Int32? { edgeIndex.slot(of: id) { edgeIDs[Int($0)] } }

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
    for slot in ends.indices { if let edge = edge(at: Int32(slot)) { result.append(edge) } }
    return result
  }

  func node(id: String) -> FlowNode? { nodeSlot(id).flatMap { nodes[Int($0)] } }

  func edge(id: String) -> FlowEdge? { edgeSlot(id).flatMap { edge(at: $0) } }

  /// The edges into the node, in the order of its input ports.
  func incomingEdges(of nodeID: String) -> [FlowEdge] {
    guard let slot = nodeSlot(nodeID) else { return [] }
    return lists.inputs(of: slot).compactMap { $0 >= 0 ? edge(at: $0) : nil }
  }

  /// The edges out of the node, in the order they were added.
  func outgoingEdges(of nodeID: String) -> [FlowEdge] {
    guard let slot = nodeSlot(nodeID) else { return [] }
    return lists.outputs(of: slot).compactMap { edge(at: $0) }
  }

  /// The slots of every edge of node `slot`, ascending.
  func edgeSlots(of slot: Int32) -> [Int32] {
    (lists.inputs(of: slot).filter { $0 >= 0 } + lists.outputs(of: slot)).sorted()
  }

  /// The whole graph as a document, transient nodes and selection included.
  func snapshot() -> FlowDocument {
    var document = FlowDocument(nodes: liveNodes, edges: liveEdges, viewport: viewport, extra: extra)
    document.shape = shape
    return document
  }

  /// The graph as SwiftFlow's `export()` writes it: no transient nodes nor edges touching them,
  /// nothing selected.
  func exported() -> FlowDocument {
    var document = FlowDocument(viewport: viewport, extra: extra)
    document.shape = shape
    document.nodes.reserveCapacity(nodeCount)
    document.edges.reserveCapacity(edgeCount)
    for case var node? in nodes where node.persistence != .transient {
      node.isSelected = false
      document.nodes.append(node)
    }
    for slot in ends.indices {
      guard var edge = edge(at: Int32(slot)), nodes[Int(ends[slot].source)]?.persistence != .transient,
        nodes[Int(ends[slot].target)]?.persistence != .transient
      else { continue }
      edge.isSelected = false
      document.edges.append(edge)
    }
    return document
  }

  /// The adjacency `TopologicalOrder` searches, optionally without one edge.
  func adjacency(excluding excludedEdge: Int32 = -1) -> StoreAdjacency {
    StoreAdjacency(lists: lists, ends: ends, excludedEdge: excludedEdge)
  }
}

/// The store's edges as `TopologicalOrder` walks them: successors through the outgoing runs,
/// predecessors through the input runs, never a scan of all edges.
struct StoreAdjacency: TopologicalAdjacency {
  let lists: StoreEdgeLists
  let ends: [StoreState.EdgeEnds]
  /// An edge slot to leave out (an edge being rewired), or -1.
  let excludedEdge: Int32

  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void) {
    for edge in lists.outputs(of: node) where edge != excludedEdge { body(ends[Int(edge)].target) }
  }

  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void) {
    for edge in lists.inputs(of: node) where edge >= 0 && edge != excludedEdge { body(ends[Int(edge)].source) }
  }
}
