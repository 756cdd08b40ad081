/// The life of one server connection, as a pure state machine: events in (bytes, a response
/// ready, time passing, the peer closing), actions out (hand a request to the handler, send
/// bytes, close). `HTTPServer`'s event loop executes the actions.
///
/// States: `reading` (parsing; a deadline `requestTimeout` after the connection opened or the
/// last response was queued), `handling` (one request is with the handler; later pipelined
/// bytes wait in the parser, and no deadline runs), `streaming` (an event stream: nothing more
/// is read as requests), `closing` (the last bytes are queued; close once they are sent).
/// Every refusal queues its 4xx response and closes; nothing here blocks or traps. With a
/// ``hostPolicy``, a request whose `Host` it refuses is answered 403 and closes here, never
/// dispatched (the DNS-rebinding defence).
///
/// Back-pressure: the machine counts the response bytes it queued and the executor has not yet
/// sent (``queuedBytes``; `sent(_:now:serverFull:)` reports each send). While reading, it
/// parses the next pipelined request only if its queue is empty, or below
/// `HTTPLimits.queuedBytesPerConnection` while the server as a whole is below
/// `HTTPLimits.queuedBytes` (`serverFull`); otherwise it is *held* (``isHeld``): it wants no
/// input (``wantsInput(serverFull:)``), and the next send or `resume(now:serverFull:)` parses
/// on. So one connection never queues more than its cap plus one response.
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
  /// Which `Host` headers are answered; `nil` answers every request.
  let hostPolicy: HTTPHostPolicy?
  /// When the request being read must be complete (nanoseconds on the server's clock).
  private(set) var deadline: UInt64?
  /// Response bytes queued by `.send` actions and not yet reported sent.
  private(set) var queuedBytes = 0
  /// Whether a request may be waiting in the parser, held back until the queue drains.
  private(set) var isHeld = false

  init(limits: HTTPLimits, now: UInt64, hostPolicy: HTTPHostPolicy? = nil) {
    self.limits = limits
    self.hostPolicy = hostPolicy
    parser = HTTPRequestParser(limits: limits)
    deadline = now &+ Self.nanoseconds(limits.requestTimeout)
  }

  /// Bytes arrived from the peer.
  mutating func received(_ bytes: some Sequence<UInt8>, now: UInt64, serverFull: Bool = false) -> [Action] {
    switch state {
    case .reading, .handling:
      parser.append(bytes)
      return state == .reading ? advance(now: now, serverFull: serverFull) : []
    case .streaming, .closing:
      return []  // an event-stream client sends nothing that matters; a closing one is done
    }
  }

  /// The handler's response to the dispatched request.
  mutating func responded(_ response: HTTPResponse, now: UInt64, serverFull: Bool = false) -> [Action] {
    guard case .handling(let keepAlive) = state else { return [] }
    if response.opensEventStream {
      state = .streaming
      deadline = nil
      return [queue(response.serialized(keepAlive: true))]
    }
    let keeps = keepAlive && response.status < 400
    let bytes = response.serialized(keepAlive: keeps)
    guard keeps else {
      state = .closing
      deadline = nil
      return [queue(bytes), .closeAfterSending]
    }
    state = .reading
    deadline = now &+ Self.nanoseconds(limits.requestTimeout)
    let send = queue(bytes)
    return [send] + advance(now: now, serverFull: serverFull)
  }

  /// The executor sent `count` of the queued bytes: a held request may go on.
  mutating func sent(_ count: Int, now: UInt64, serverFull: Bool = false) -> [Action] {
    queuedBytes = max(0, queuedBytes - count)
    return resume(now: now, serverFull: serverFull)
  }

  /// Parses on if the machine is held and may now dispatch (the server's queue shrank).
  mutating func resume(now: UInt64, serverFull: Bool) -> [Action] {
    guard isHeld, state == .reading, mayDispatch(serverFull: serverFull) else { return [] }
    return advance(now: now, serverFull: serverFull)
  }

  /// Whether the executor should read from the peer now: while reading and not held, while
  /// streaming or closing (to notice the peer going); never while a request is handled.
  func wantsInput(serverFull: Bool) -> Bool {
    switch state {
    case .reading: mayDispatch(serverFull: serverFull)
    case .streaming, .closing: true
    case .handling: false
    }
  }

  /// Whether a further request may be handled with what is queued now.
  private func mayDispatch(serverFull: Bool) -> Bool {
    queuedBytes == 0 || (!serverFull && queuedBytes < limits.queuedBytesPerConnection)
  }

  /// The action that queues `bytes`, counted in ``queuedBytes``.
  private mutating func queue(_ bytes: [UInt8]) -> Action {
    queuedBytes += bytes.count
    return .send(bytes)
  }

  /// Time passed: past the deadline, a partial request gets 408, an idle connection closes.
  mutating func tick(now: UInt64) -> [Action] {
    guard state == .reading, let deadline, now >= deadline else { return [] }
    state = .closing
    self.deadline = nil
    if parser.hasPartialRequest {
      return [
        queue(
          HTTPResponse.error(408, "the request did not arrive within the time allowed").serialized(keepAlive: false)),
        .closeAfterSending
      ]
    }
    return [.closeAfterSending]
  }

  /// Parses what the buffer holds: the next request, or a refusal; nothing while the queue is
  /// at its cap (held).
  private mutating func advance(now: UInt64, serverFull: Bool) -> [Action] {
    guard mayDispatch(serverFull: serverFull) else {
      isHeld = true
      return []
    }
    isHeld = false
    switch parser.next() {
    case .incomplete:
      return []
    case .request(let request):
      if let hostPolicy, !hostPolicy.allows(host: request.header("Host")) {
        state = .closing
        deadline = nil
        return [queue(HTTPHostPolicy.refusal.serialized(keepAlive: false)), .closeAfterSending]
      }
      state = .handling(keepAlive: request.keepsAlive)
      deadline = nil
      return [.dispatch(request)]
    case .failure(let status, let reason):
      state = .closing
      deadline = nil
      return [queue(HTTPResponse.error(status, reason).serialized(keepAlive: false)), .closeAfterSending]
    }
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let parts = duration.components
    guard parts.seconds >= 0 else { return 0 }
    return UInt64(parts.seconds) &* 1_000_000_000 &+ UInt64(parts.attoseconds / 1_000_000_000)
  }
}
