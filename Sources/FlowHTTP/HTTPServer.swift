import Dispatch
import Foundation
import FlowSupport
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets: one event-loop thread multiplexing every
/// connection with `poll(2)`, handlers run on the server's own handler queues, keep-alive,
/// and server-sent event streams as chunked responses.
///
/// Requests are parsed by `HTTPRequestParser` within `HTTPLimits`; each connection follows
/// `HTTPConnectionMachine`. Anything malformed, too large or too slow is answered with its 4xx
/// status and the connection closed; a request whose `Host` is not one of `allowedHosts` with
/// the server's port is answered 403 (DNS rebinding). One connection past `limits.connections`
/// is answered 503 and closed. Nothing a peer sends can crash the server or stall the others.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///   HTTPResponse(status: 200, contentType: "text/plain", text: "hello\n")
/// }
/// print(server.port)
/// server.publish(Array("data: tick\n\n".utf8))  // to every open event stream
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
  /// Answers one request (called on one of the server's handler queues, possibly concurrently).
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// Where and how the server listens.
  public struct Configuration: Sendable {
    /// An IP literal or `localhost`; loopback by default.
    public var host = "127.0.0.1"
    /// 0: the system picks a free port (read it from `HTTPServer.port`).
    public var port: UInt16 = 0
    public var limits = HTTPLimits()
    /// Host names a request's `Host` header may name (with the server's port).
    public var allowedHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
    /// The clock of the request deadlines, in nanoseconds (tests inject a manual one and call
    /// `checkDeadlines()` after moving it).
    public var now: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }

    public init(host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPLimits = HTTPLimits()) {
      self.host = host
      self.port = port
      self.limits = limits
    }
  }

  /// The port the server listens on.
  public let port: UInt16
  let core: HTTPServerCore

  /// Binds, listens and starts the event loop.
  ///
  /// - Throws: `HTTPServerError` if the address is not a literal or cannot be bound.
  public init(configuration: Configuration = Configuration(), handler: @escaping Handler) throws(HTTPServerError) {
    let (listener, port) = try UnsafeSocket.listen(host: configuration.host, port: configuration.port)
    let wake: (read: Int32, write: Int32)
    do { wake = try UnsafeSocket.pipe() } catch {
      UnsafeSocket.close(listener)
      throw error
    }
    self.port = port
    core = HTTPServerCore(configuration: configuration, port: port, wakePipe: wake)
    let loop = HTTPServerLoop(core: core, listener: listener, handler: handler)
    let thread = Thread { [loop] in loop.run() }
    thread.name = "FlowHTTP event loop"
    thread.start()
  }

  /// Sends `bytes` (one or more complete server-sent events, `data: …\n\n`) to every open
  /// event stream.
  public func publish(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    core.shared.withLock { $0.events.append(bytes) }
    UnsafeSocket.poke(core.wakePipe.write)
  }

  /// The connections open now.
  public var connectionCount: Int { core.openConnections.load(ordering: .relaxed) }

  /// The event streams open now.
  public var eventStreamCount: Int { core.streamCount.load(ordering: .relaxed) }

  /// Response and event bytes queued on all connections and not yet sent (bounded by
  /// `HTTPLimits.queuedBytes` plus one response per connection).
  public var queuedResponseBytes: Int { core.queuedBytes.load(ordering: .relaxed) }

  /// Makes the loop look at the clock now (after a test moved an injected clock).
  public func checkDeadlines() { UnsafeSocket.poke(core.wakePipe.write) }

  /// Ends every event stream, closes every connection and the listener, and waits for the
  /// loop to finish. Responses still being computed are dropped. Idempotent.
  public func stop() {
    guard !core.stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    core.shared.withLock { $0.stopping = true }
    UnsafeSocket.poke(core.wakePipe.write)
    core.finished.wait()
    // The wake-up pipe stays open until the core goes: a handler finishing late, or a
    // `publish` racing this stop, still pokes it, and a closed descriptor's number could by
    // then belong to another file of the process.
  }

  deinit { stop() }
}

/// What the event loop shares with the server's other threads.
final class HTTPServerCore: Sendable {
  /// Responses and events waiting for the loop, and the stop request.
  struct Shared: Sendable {
    var completions: [(connection: UInt64, response: HTTPResponse)] = []
    var events: [[UInt8]] = []
    var stopping = false
  }

  let configuration: HTTPServer.Configuration
  let port: UInt16
  let shared = Locked(Shared())
  let wakePipe: (read: Int32, write: Int32)
  let finished = DispatchSemaphore(value: 0)
  let stopped = Atomic<Bool>(false)
  let openConnections = Atomic<Int>(0)
  let streamCount = Atomic<Int>(0)
  /// Response and event bytes queued on every connection and not yet sent.
  let queuedBytes = Atomic<Int>(0)
  /// Where handlers run: the server's own serial queues, a connection's requests always on the
  /// same one. Never Dispatch's global queue: its pool is as wide as the machine has cores and
  /// grows only slowly past threads that block, so a process that filled it with blocked work
  /// (an app's blocking I/O, a test's clients) would leave every response waiting, however
  /// long. A serial queue gets a thread of its own whenever it has work.
  let handlerQueues: [DispatchQueue] = (0..<HTTPServerCore.handlerQueueCount).map {
    DispatchQueue(label: "FlowHTTP handler \($0)")
  }
  /// As many handler queues as cores, at least 2 and at most 8.
  static let handlerQueueCount = min(max(ProcessInfo.processInfo.activeProcessorCount, 2), 8)

  init(configuration: HTTPServer.Configuration, port: UInt16, wakePipe: (read: Int32, write: Int32)) {
    self.configuration = configuration
    self.port = port
    self.wakePipe = wakePipe
  }

  deinit {
    UnsafeSocket.close(wakePipe.read)
    UnsafeSocket.close(wakePipe.write)
  }

  /// The `Host` policy every connection's machine applies.
  var hostPolicy: HTTPHostPolicy { HTTPHostPolicy(allowedHosts: configuration.allowedHosts, port: port) }
}
