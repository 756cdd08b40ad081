/// One entry of `FlowStore.operationHistory`: an operation the store was asked to perform,
/// what became of it, and the revision after it.
public struct OperationRecord: Sendable, Hashable, CustomStringConvertible {
  /// What became of an operation.
  public enum Outcome: Sendable, Hashable {
    /// The operation was applied (possibly changing nothing, then without a new revision).
    case applied
    /// A guard vetoed it; nothing changed.
    case blocked(guard: String, reason: String)
    /// Validation rejected it (Reference.md, "Validation"); nothing changed. The message is the error's.
    case rejected(String)
  }

  /// Numbers the records of one store from 0, in the order they happened (a record evicted from
  /// the bounded history leaves a gap at the front).
  public var sequence: Int
  /// The operation as guards saw it (a load's document is left out to keep the history small).
  public var operation: StoreOperation
  /// Whether the operation was applied, blocked by a guard or rejected by validation.
  public var outcome: Outcome
  /// The store's revision after the operation (unchanged unless it was applied and changed
  /// something).
  public var revision: Int

  /// A record with the given parts (the store makes them; tests and hosts may too).
  public init(sequence: Int, operation: StoreOperation, outcome: Outcome, revision: Int) {
    self.sequence = sequence
    self.operation = operation
    self.outcome = outcome
    self.revision = revision
  }

  /// Whether the operation was applied.
  public var wasApplied: Bool { outcome == .applied }

  /// `#3 r5 applied addNode [a]`, `#4 r5 blocked by 'lock' (node a is locked): removeNode [a]`.
  public var description: String {
    switch outcome {
    case .applied: "#\(sequence) r\(revision) applied \(operation)"
    case .blocked(let name, let reason): "#\(sequence) r\(revision) blocked by '\(name)' (\(reason)): \(operation)"
    case .rejected(let message): "#\(sequence) r\(revision) rejected (\(message)): \(operation)"
    }
  }
}
