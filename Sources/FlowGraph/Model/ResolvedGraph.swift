/// A document's graph after validation, held with dense integer indices.
///
/// Node `i` is `document.nodes[i]`; ports are indices into the node's signature; string ids
/// exist only at the boundary (`nodeIndex(of:)`, `nodeIDs`). The invariants: every edge joins
/// an output port to an input port of compatible type, no input has two edges, and
/// `topologicalOrder` lists every node after all of its predecessors. The ids of
/// `document.nodes` and `document.edges` never change (`document` is only written to update
/// its live state): the id indexes compare against them.
public struct ResolvedGraph: Sendable {
  /// One edge, by dense indices.
  public struct Edge: Sendable, Hashable {
    public var source: Int32
    public var sourcePort: Int32
    public var target: Int32
    public var targetPort: Int32
    /// The edge's position in `document.edges`.
    public var documentIndex: Int32
  }

  public package(set) var document: FlowDocument
  public let signatures: [NodeSignature]
  public let edges: [Edge]
  /// Node indices, each after all of its predecessors; ties in document order.
  public let topologicalOrder: [Int32]
  /// The id of each node, by dense index (`document.nodes[i].id`): a compact column that id
  /// lookups compare against, and that an engine keeps as its own.
  package let nodeIDs: [String]
  /// The index of each node id (its first node), against `nodeIDs`.
  let nodeTable: IDIndex

  init(
    document: FlowDocument, signatures: [NodeSignature], edges: [Edge], topologicalOrder: [Int32],
    nodeIDs: [String], nodeTable: IDIndex
  ) {
    self.document = document
    self.nodeIDs = nodeIDs
    self.signatures = signatures
    self.edges = edges
    self.topologicalOrder = topologicalOrder
    self.nodeTable = nodeTable
  }

  /// A graph of `document`, whose node ids are unique (a store's live nodes).
  init(document: FlowDocument, signatures: [NodeSignature], edges: [Edge], topologicalOrder: [Int32]) {
    let ids = document.nodes.map(\.id)
    var table = IDIndex(capacity: ids.count)
    table.insertAll(count: ids.count, id: { ids[$0] }, idAt: { ids[Int($0)] }) { index, _ in
      preconditionFailure("Internal inconsistency: node id '\(ids[index])' twice in a store")
    }
    self.init(
      document: document, signatures: signatures, edges: edges, topologicalOrder: topologicalOrder,
      nodeIDs: ids, nodeTable: table)
  }

  public var nodeCount: Int { signatures.count }

  /// The dense index of the node with id `id`.
  public func nodeIndex(of id: String) -> Int? {
    let ids = nodeIDs
    return nodeTable.position(of: id) { ids[Int($0)] }.map(Int.init)
  }

  /// The id of the node at `index`.
  public func nodeID(_ index: Int) -> String { document.nodes[index].id }
}
