/// The engine's evaluator in a cell that the state machine hands around by reference.
///
/// Invariants (why `@unchecked Sendable` is sound):
/// - An engine makes one cell per evaluator, and the cell has one holder at a time: the state
///   machine (`EngineStateMachine.parked`, touched only under `EngineCore`'s lock), or the one
///   runner or synchronous pass the machine handed it to (`takeWork(handingOver:)`,
///   `received(_:handingOver:)`) until that pass returns it (`passFinished`,
///   `synchronousPassFinished`, which set the holder's reference to `nil`).
/// - Readers (`readerArrived`) run under the lock while the cell is parked.
/// So `evaluator` is never read and written from two threads at once; the lock's hand-over
/// orders each holder's accesses after the previous holder's.
///
/// Why a cell: `GraphEvaluator` is a large struct, and moving it into and out of `Optional`s at
/// every hand-over copied its bytes several times per pass (a few µs of a 2-node pass).
final class EvaluatorCell: @unchecked Sendable {
  var evaluator: GraphEvaluator

  init(_ evaluator: GraphEvaluator) { self.evaluator = evaluator }
}

extension EvaluatorCell: ParkedEvaluator {
  var hasPendingWork: Bool { evaluator.hasPendingWork }
  var admitsSynchronousPasses: Bool { evaluator.admitsSynchronousPasses }
}
