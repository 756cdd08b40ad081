/// The life of one server connection, as a pure state machine: events in (bytes, a response
/// ready, time passing, the peer closing), actions out (hand a request to the handler, send
/// bytes, close). `HTTPServer`'s event loop executes the actions.
///
/// States: `reading` (parsing; a deadline `requestTimeout` after the connection opened or the
/// last response was queued), `handling` (one request is with the handler; later pipelined
/// bytes wait in the parser, and no deadline runs), `streaming` (an event stream: nothing more
/// is read as requests), `closing` (the last bytes are queued; close once they are sent).
/// Every refusal queues its 4xx response and closes; nothing here blocks or traps.
struct HTTPConnectionMachine: Sendable {
  enum State: Sendable, Equatable {
    case reading
    case handling(keepAlive: Bool)
    case streaming
    case closing
  }

  /// What the executor must do, in order.
  enum Action: Sendable, Equatable {
    /// Give the request to the handler; call `responded(_:now:)` with its response.
    case dispatch(HTTPRequest)
    /// Queue these bytes for sending.
    case send([UInt8])
    /// Close once the queued bytes are sent (or at once if the peer is gone).
    case closeAfterSending
  }

  private(set) var state = State.reading
  private var parser: HTTPRequestParser
  let limits: HTTPLimits
  /// When the request being read must be complete (nanoseconds on the server's clock).
  private(set) var deadline: UInt64?

  init(limits: HTTPLimits, now: UInt64) {
    self.limits = limits
    parser = HTTPRequestParser(limits: limits)
    deadline = now &+ Self.nanoseconds(limits.requestTimeout)
  }

  /// Bytes arrived from the peer.
  mutating func received(_ bytes: some Sequence<UInt8>, now: UInt64) -> [Action] {
    switch state {
    case .reading, .handling:
      parser.append(bytes)
      return state == .reading ? advance(now: now) : []
    case .streaming, .closing:
      return []  // an event-stream client sends nothing that matters; a closing one is done
    }
  }

  /// The handler's response to the dispatched request.
  mutating func responded(_ response: HTTPResponse, now: UInt64) -> [Action] {
    guard case .handling(let keepAlive) = state else { return [] }
    if response.opensEventStream {
      state = .streaming
      deadline = nil
      return [.send(response.serialized(keepAlive: true))]
    }
    let keeps = keepAlive && response.status < 400
    let bytes = response.serialized(keepAlive: keeps)
    guard keeps else {
      state = .closing
      deadline = nil
      return [.send(bytes), .closeAfterSending]
    }
    state = .reading
    deadline = now &+ Self.nanoseconds(limits.requestTimeout)
    return [.send(bytes)] + advance(now: now)
  }

  /// Time passed: past the deadline, a partial request gets 408, an idle connection closes.
  mutating func tick(now: UInt64) -> [Action] {
    guard state == .reading, let deadline, now >= deadline else { return [] }
    state = .closing
    self.deadline = nil
    if parser.hasPartialRequest {
      return [.send(HTTPResponse.error(408, "the request did not arrive within the time allowed").serialized(keepAlive: false)),
              .closeAfterSending]
    }
    return [.closeAfterSending]
  }

  /// Parses what the buffer holds: the next request, or a refusal.
  private mutating func advance(now: UInt64) -> [Action] {
    switch parser.next() {
    case .incomplete:
      return []
    case .request(let request):
      state = .handling(keepAlive: request.keepsAlive)
      deadline = nil
      return [.dispatch(request)]
    case .failure(let status, let reason):
      state = .closing
      deadline = nil
      return [.send(HTTPResponse.error(status, reason).serialized(keepAlive: false)), .closeAfterSending]
    }
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let parts = duration.components
    guard parts.seconds >= 0 else { return 0 }
    return UInt64(parts.seconds) &* 1_000_000_000 &+ UInt64(parts.attoseconds / 1_000_000_000)
  }
}
