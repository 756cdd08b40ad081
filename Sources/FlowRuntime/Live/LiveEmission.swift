/// One item of the engine's emission buffer: a source's outputs and state, or the end of a
/// source (finished or failed). Plain data, so the state machine tests build them directly.
struct LiveEmission: Sendable {
  enum Event: Sendable, Equatable {
    /// The source emitted these outputs.
    case value
    /// The source's `run` returned: it is finished.
    case finished
    /// The source's `run` threw: the node fails with this message.
    case failed(String)
  }

  /// Which started source (a fresh token per start, so a stopped source's leftovers are ignored).
  var token: UInt64
  var node: Int32
  var outputs: [Value]
  var state: Value
  var event: Event

  init(token: UInt64, node: Int32, outputs: [Value] = [], state: Value = .integer(0), event: Event = .value) {
    self.token = token
    self.node = node
    self.outputs = outputs
    self.state = state
    self.event = event
  }
}
