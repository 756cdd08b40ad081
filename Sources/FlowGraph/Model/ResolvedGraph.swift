/// A document's graph after validation, held with dense integer indices.
///
/// Node `i` is `document.nodes[i]`; ports are indices into the node's signature; string ids
/// exist only at the boundary (`nodeIndex(of:)`, `nodeIDs`). The invariants: every edge joins
/// an output port to an input port of compatible type, no input has two edges, and
/// `topologicalOrder` lists every node after all of its predecessors.
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
  package let indexByID: [String: Int32]
  /// The position of each edge in `document.edges`, by id (empty when the graph was not made
  /// by validation).
  package let edgeIndexByID: [String: Int32]

  init(document: FlowDocument, signatures: [NodeSignature], edges: [Edge], topologicalOrder: [Int32],
       indexByID: [String: Int32], edgeIndexByID: [String: Int32] = [:]) {
    self.edgeIndexByID = edgeIndexByID
    self.document = document
    self.signatures = signatures
    self.edges = edges
    self.topologicalOrder = topologicalOrder
    self.indexByID = indexByID
  }

  public var nodeCount: Int { signatures.count }

  /// The dense index of the node with id `id`.
  public func nodeIndex(of id: String) -> Int? { indexByID[id].map(Int.init) }

  /// The id of the node at `index`.
  public func nodeID(_ index: Int) -> String { document.nodes[index].id }
}
