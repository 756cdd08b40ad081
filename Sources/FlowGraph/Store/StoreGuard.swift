/// A host's veto over store operations: a named check that allows an operation or blocks it
/// with a reason.
///
/// - A **synchronous** guard (`init(_:check:)`) runs inside every operation, under the store's
///   lock, before anything is committed: a vetoed operation throws a `GraphValidationError`
///   whose one issue (code `.vetoed`) carries the guard's name and reason, changes nothing,
///   fires no callback and does not enter the undo history (`undo()`/`redo()` return `false`).
///   It must be quick and must not call the store (the lock is not reentrant).
/// - An **async** guard (`init(_:asyncCheck:)`) runs only for operations submitted with
///   `FlowStore.perform(_:)`, before the operation is applied, outside the lock (it may read
///   the store, ask a user, call a server). The synchronous API does not wait for async guards.
///
/// Guards run in the order they were added; the first veto wins. Every blocked operation is
/// recorded in `FlowStore.operationHistory` with the guard's name and reason.
public struct StoreGuard: Sendable {
  /// A guard's answer.
  public enum Verdict: Sendable, Hashable {
    /// The operation may proceed.
    case allow
    /// The operation is blocked, for the reason given (shown to the user and in the history).
    case veto(String)
  }

  enum Check: Sendable {
    case sync(@Sendable (StoreOperation) -> Verdict)
    case async(@Sendable (StoreOperation) async -> Verdict)
  }

  /// The guard's name, unique in a store (adding a guard replaces one of the same name).
  public var name: String
  let check: Check

  /// A synchronous guard, checked inside every operation.
  ///
  /// - Parameters:
  ///   - name: names the guard in errors and in the operation history.
  ///   - check: decides; runs under the store's lock and must not call the store.
  public init(_ name: String, check: @escaping @Sendable (StoreOperation) -> Verdict) {
    self.name = name
    self.check = .sync(check)
  }

  /// An async guard, awaited before each operation submitted with `FlowStore.perform(_:)`.
  ///
  /// - Parameters:
  ///   - name: names the guard in errors and in the operation history.
  ///   - asyncCheck: decides; runs outside the store's lock, may read the store or await
  ///     anything, and holds up the queue of performed operations until it returns (so it must
  ///     not itself `perform` on the same store: that would wait for its own turn).
  public init(_ name: String, asyncCheck: @escaping @Sendable (StoreOperation) async -> Verdict) {
    self.name = name
    self.check = .async(asyncCheck)
  }

  /// Whether the guard runs inside every operation (`true`) or only before queued ones.
  public var isSynchronous: Bool {
    if case .sync = check { true } else { false }
  }

  /// The error a veto throws: one `.vetoed` issue naming the guard, the operation and the ids.
  static func vetoError(guard name: String, reason: String, operation: StoreOperation) -> GraphValidationError {
    GraphValidationError(
      GraphIssue(
        .vetoed, "guard '\(name)' blocked \(operation): \(reason)",
        nodeIDs: operation.nodeIDs, edgeID: operation.edgeIDs.first))
  }
}

extension GraphIssue.Code {
  /// A store guard blocked the operation; the message names the guard and gives its reason.
  public static let vetoed = GraphIssue.Code(rawValue: "vetoed")
  /// `FlowStore.apply(_:)` got an operation it cannot perform (an undo inside a batch, say).
  public static let unsupportedOperation = GraphIssue.Code(rawValue: "unsupportedOperation")
}
