/// A definition edit applied to every instance alike (Reference.md, "Subgraphs"), as one change item
/// (`FlowStoreChange.Item.subgraphReplaced`): the same inner nodes of each listed instance were
/// replaced by the same nodes. It stands for `nodeChangeCount` `.replace` node changes, which
/// `nodeChanges` lists (and `FlowStoreChange.nodeChanges` / `expandedItems` expand it into),
/// in the order the per-node changes would have come: instance after instance, inner node
/// after inner node.
///
/// `FlowStore.setSubgraph` (and its undo and redo) publishes one where a definition edit only
/// changes the specs of inner nodes that are alike in every instance (same ports, same
/// wiring, same geometry); any other edit comes as per-node changes.
public struct SubgraphReplacement: Sendable, Hashable {
  /// The definition that changed.
  public var name: String
  /// The top-level instances whose inner nodes were replaced, in order.
  public var instanceIDs: [String]
  /// The nodes each instance's inner nodes became, with ids (and `parentID`s) relative to the
  /// instance: `"/n5"` is `"c0/n5"` in instance `c0`.
  public var innerNodes: [FlowNode]

  /// - Parameters:
  ///   - name: the definition.
  ///   - instanceIDs: the top-level instances concerned, in order.
  ///   - innerNodes: the replacement nodes, ids relative to the instance (starting with `/`).
  public init(name: String, instanceIDs: [String], innerNodes: [FlowNode]) {
    self.name = name
    self.instanceIDs = instanceIDs
    self.innerNodes = innerNodes
  }

  /// How many node changes this stands for.
  public var nodeChangeCount: Int { instanceIDs.count * innerNodes.count }

  /// Inner node `inner` of instance `instanceID`, as the store holds it after the change.
  public func node(_ inner: Int, of instanceID: String) -> FlowNode {
    var node = innerNodes[inner]
    node.id = instanceID + node.id
    if let parent = node.parentID { node.parentID = instanceID + parent }
    return node
  }

  /// The per-node changes this stands for: a `.replace` of each inner node of each instance.
  ///
  /// - Complexity: O(`nodeChangeCount`), an id made per change.
  public var nodeChanges: [NodeChange] {
    var changes: [NodeChange] = []
    changes.reserveCapacity(nodeChangeCount)
    for instance in instanceIDs {
      for inner in innerNodes.indices { changes.append(.replace(node(inner, of: instance))) }
    }
    return changes
  }
}

extension String {
  /// Whether the string is `head + tail`, compared in pieces (without making that string).
  package func isConcatenation(_ head: String, _ tail: String) -> Bool {
    let full = utf8, first = head.utf8, second = tail.utf8
    guard full.count == first.count + second.count else { return false }
    // One pass over the bytes, with the views' iterators (no substrings, no index arithmetic).
    var bytes = full.makeIterator()
    for byte in first where bytes.next() != byte { return false }
    for byte in second where bytes.next() != byte { return false }
    return true
  }
}
