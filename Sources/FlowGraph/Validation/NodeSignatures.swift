/// The signature of each node during validation, held as a 4-byte index per node into the
/// distinct signatures met.
///
/// Nodes of a static kind share one signature (the same port arrays), so a document of a
/// million nodes has a handful of distinct ones: the per-node column stays small enough to sit
/// in cache while the edge rule reads both ends of every edge in random order, where an array
/// of optional signatures (24 bytes a node) misses cache on almost every read.
struct NodeSignatures {
  /// `distinct[Int(indices[node])]` is the node's signature; -1: it has none (its spec did
  /// not resolve).
  private(set) var indices: [Int32] = []
  private(set) var distinct: [NodeSignature] = []
  /// The last few distinct signatures appended, by index into `distinct`, compared with each
  /// new one before it is kept.
  private var recent: [Int32] = []

  var count: Int { indices.count }

  mutating func reserveCapacity(_ count: Int) { indices.reserveCapacity(count) }

  /// Appends the next node's signature (`nil`: none).
  mutating func append(_ signature: NodeSignature?) {
    guard let signature else { return indices.append(-1) }
    // `==` on arrays sharing one buffer (nodes of a static kind) returns without comparing ports.
    for index in recent where distinct[Int(index)] == signature {
      return indices.append(index)
    }
    let index = Int32(distinct.count)
    distinct.append(signature)
    if recent.count == 8 { recent.removeFirst() }
    recent.append(index)
    indices.append(index)
  }

  /// Gives node `node` the signature `signature` (one that params fed by edges extended).
  mutating func replace(_ node: Int, with signature: NodeSignature) {
    indices[node] = Int32(distinct.count)
    distinct.append(signature)
  }

  /// Node `node`'s signature, if its spec resolved.
  @inline(__always)
  subscript(node: Int) -> NodeSignature? {
    let index = indices[node]
    return index < 0 ? nil : distinct[Int(index)]
  }

  /// The index into the distinct signatures of each node of `nodes` (-1 for a node without a
  /// signature, and for a negative node: one not found).
  func indices(of nodes: [Int32]) -> [Int32] {
    nodes.map { $0 >= 0 ? indices[Int($0)] : -1 }
  }

  /// The signature at `index` of `indices(of:)`.
  @inline(__always)
  func signature(at index: Int32) -> NodeSignature? {
    index < 0 ? nil : distinct[Int(index)]
  }

  /// Every node's signature, for a document that validated (each node has one).
  func resolved() -> [NodeSignature] {
    indices.map { distinct[Int($0)] }
  }
}
