/// An operation as `FlowStore` keeps it in its operation history: the single-node and
/// single-edge operations of the synchronous API hold just their node, edge or id, so that a
/// mutation does not build a `StoreOperation` (two arrays) unless a guard or a reader of
/// `operationHistory` asks for it (`operation`).
enum RecordedOperation: Sendable {
  case addNode(FlowNode)
  case removeNode(id: String)
  case updateNode(FlowNode)
  case addEdge(FlowEdge)
  case removeEdge(id: String)
  case updateEdge(FlowEdge)
  /// Any other operation (batches, undo, redo, loads, operations handed to `perform(_:)`).
  /// Indirect: a `StoreOperation` holds a whole document inline, and every mutation moves its
  /// record into the operation history.
  indirect case other(StoreOperation)
  /// An undo or redo that no guard saw, described from its change items when read (every
  /// item carries its whole node or edge; see `StoreOperation.replayed(_:items:)`).
  case replayed(StoreOperation.Kind, items: [FlowStoreChange.Item])

  /// The operation, as guards and `operationHistory` see it.
  var operation: StoreOperation {
    switch self {
    case .addNode(let node): .addNode(node)
    case .removeNode(let id): .removeNode(id: id)
    case .updateNode(let node): .updateNode(node)
    case .addEdge(let edge): .addEdge(edge)
    case .removeEdge(let id): .removeEdge(id: id)
    case .updateEdge(let edge): .updateEdge(edge)
    case .other(let operation): operation
    case .replayed(let kind, let items): StoreOperation.replayed(kind, items: items)
    }
  }
}

extension FlowStore {
  /// One entry of the operation history as stored: an `OperationRecord` whose operation is
  /// built when read.
  struct StoredRecord: Sendable {
    var sequence: Int
    var operation: RecordedOperation
    var outcome: OperationRecord.Outcome
    var revision: Int

    var record: OperationRecord {
      OperationRecord(sequence: sequence, operation: operation.operation, outcome: outcome, revision: revision)
    }
  }
}

extension StoreOperation {
  /// The description `StoreState.describe` gives of a replay whose items each carry the
  /// node or edge they leave (adds, replacements, removals only): the ids in order without
  /// repeats, and the last value each item left, where the node or edge stays.
  static func replayed(_ kind: Kind, items: [FlowStoreChange.Item]) -> StoreOperation {
    var nodeIDs: [String] = [], edgeIDs: [String] = []
    var nodes: [String: FlowNode] = [:], edges: [String: FlowEdge] = [:]
    for item in FlowStoreChange.expanded(items) {
      switch item {
      case .subgraphReplaced: break  // expanded
      case .node(let change):
        nodeIDs.append(change.nodeID)
        switch change {
        case .add(let node), .replace(let node): nodes[node.id] = node
        default: nodes[change.nodeID] = nil
        }
      case .edge(let change):
        edgeIDs.append(change.edgeID)
        switch change {
        case .add(let edge), .replace(let edge): edges[edge.id] = edge
        default: edges[change.edgeID] = nil
        }
      }
    }
    nodeIDs = unique(nodeIDs)
    edgeIDs = unique(edgeIDs)
    return StoreOperation(
      kind: kind, nodeIDs: nodeIDs, edgeIDs: edgeIDs, nodes: nodeIDs.compactMap { nodes[$0] },
      edges: edgeIDs.compactMap { edges[$0] })
  }

  /// Whether `replayed(_:items:)` describes `items` as `StoreState.describe` would: every
  /// item an add, a replacement or a removal.
  static func replaysWhole(_ items: [FlowStoreChange.Item]) -> Bool {
    items.allSatisfy { item in
      switch item {
      case .node(.add), .node(.replace), .node(.remove), .edge(.add), .edge(.replace), .edge(.remove),
        .subgraphReplaced:
        true
      default: false
      }
    }
  }
}
