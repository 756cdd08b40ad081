// What hosts write without typed throws: a batch whose body throws any error, and undo/redo
// that say why nothing happened.

extension FlowStore {
  /// `batch(_:)` for a body that throws any error (a host's own, a parse, a lookup), all or
  /// nothing like it: if `body` throws, the mutations it made are rolled back, nothing fires,
  /// and its error is rethrown as it was.
  ///
  /// ```swift
  /// try store.batch { batch in
  ///   try batch.addNode(FlowNode(id: "c", data: NodeSpec(kind: "add")))
  ///   guard let a = batch.node(id: "a") else { throw MissingNode("a") }
  ///   try batch.addEdge(FlowEdge(id: "a-c", sourceNodeID: a.id, sourceHandleID: "value",
  ///                              targetNodeID: "c", targetHandleID: "a"))
  /// }
  /// ```
  ///
  /// - Throws: what `body` throws, or a `GraphValidationError` (a mutation's, a guard's veto).
  @_disfavoredOverload
  public func batch(_ body: (inout Batch) throws -> Void) throws {
    var thrown: (any Error)?
    do {
      try batch { (batch: inout Batch) throws(GraphValidationError) in
        do {
          try body(&batch)
        } catch let error as GraphValidationError {
          throw error
        } catch {
          thrown = error
          throw GraphValidationError(GraphIssue(.batchBodyFailed, "the batch's body threw: \(error)"))
        }
      }
    } catch {
      if let thrown { throw thrown }
      throw error
    }
  }

  /// What an `attemptUndo()` or `attemptRedo()` did.
  public enum HistoryStepOutcome: Sendable, Hashable {
    /// The step was undone (redone): a revision, with the ordinary callbacks.
    case done
    /// The history had no step to undo (redo).
    case nothingToDo
    /// A guard vetoed the step: nothing changed and the step stays where it was.
    case vetoed(GraphValidationError)
  }

  /// `undo()`, telling why nothing happened: nothing to undo, or a guard's veto.
  @discardableResult
  public func attemptUndo() -> HistoryStepOutcome { attempt(redo: false) }

  /// `redo()`, telling why nothing happened: nothing to redo, or a guard's veto.
  @discardableResult
  public func attemptRedo() -> HistoryStepOutcome { attempt(redo: true) }

  private func attempt(redo: Bool) -> HistoryStepOutcome {
    do {
      return try undoOrRedo(redo: redo) ? .done : .nothingToDo
    } catch {
      return .vetoed(error)
    }
  }
}

extension GraphIssue.Code {
  /// A batch's body threw an error of its own; the batch was rolled back (`FlowStore.batch`).
  public static let batchBodyFailed = GraphIssue.Code(rawValue: "batchBodyFailed")
}
