/// How a running source emits and tells time.
///
/// `emit` hands one emission to the engine's bounded buffer; when the buffer is full it
/// suspends until the engine has drained it (back-pressure: nothing is dropped, memory stays
/// bounded). Once the source is stopped, `emit` throws `CancellationError`.
public struct LiveEmitter: Sendable {
  /// The engine's clock (a manual one in tests).
  public let clock: any Clock<Duration>
  let deliver: @Sendable (_ outputs: [Value], _ state: Value) async -> Bool

  init(clock: any Clock<Duration>, deliver: @escaping @Sendable (_ outputs: [Value], _ state: Value) async -> Bool) {
    self.clock = clock
    self.deliver = deliver
  }

  /// Emits one value per output port, in port order, and the state the node has once this
  /// emission is processed (saved with the document, and given back to `run` on a restart).
  ///
  /// - Throws: `CancellationError` if the source was stopped.
  public func emit(_ outputs: [Value], state: Value) async throws {
    guard await deliver(outputs, state), !Task.isCancelled else { throw CancellationError() }
  }

  /// Sleeps on the engine's clock for `duration`.
  ///
  /// - Throws: `CancellationError` if the source is stopped while it sleeps.
  public func sleep(for duration: Duration) async throws {
    try await clock.sleep(for: duration)
  }
}
