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
  case other(StoreOperation)

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
