/// A live node that emits outputs on its own, from a task the engine owns.
///
/// The engine starts `run` when the node joins the graph (or, `onDemand`, becomes necessary)
/// and cancels the task when the node leaves (removal, kind or param change, reload, engine
/// shutdown) or stops being necessary. `run` returning means the source is *finished* (a file
/// read to its end, a clock past its limit); throwing a `NodeError` fails the node with it.
public protocol LiveSource: Sendable {
  /// The state of a node that joins the graph.
  var initialState: Value { get }

  /// Reads state saved with a document.
  ///
  /// - Throws: `NodeError` saying why the state is unreadable; the node then fails naming itself.
  func restore(_ saved: Value) throws(NodeError) -> Value

  /// Emits until finished or cancelled, resuming from `state` (the state of the last emission
  /// the engine processed, or a restored one).
  ///
  /// - Throws: `CancellationError` when stopped (the emitter throws it), or `NodeError`.
  func run(from state: Value, _ emitter: LiveEmitter) async throws
}
