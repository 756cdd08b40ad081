/// The bounds every connection of an `HTTPServer` lives within; anything past them is answered
/// with the matching 4xx status and a closed connection.
public struct HTTPLimits: Sendable, Hashable {
  /// The request line and headers together, in bytes (past it: 431).
  public var headBytes = 16 * 1_024
  /// At most this many header lines (past it: 431).
  public var headerCount = 100
  /// A request body, in bytes, announced by `Content-Length` (past it: 413).
  public var bodyBytes = 1_024 * 1_024
  /// Open connections at once; one more is answered 503 and closed.
  public var connections = 64
  /// Time to send a complete request, from the connection's opening or the end of the previous
  /// response (past it: 408 if part of a request came, else the idle connection is closed).
  public var requestTimeout: Duration = .seconds(30)
  /// Bytes waiting to be sent to one event-stream client before it is dropped as too slow.
  public var streamBacklogBytes = 4 * 1_024 * 1_024
  /// Response bytes queued for one connection (answered, not yet taken by the client) at which
  /// the server stops reading and parsing that client's further requests until the client has
  /// read enough: back-pressure, so a client that pipelines without reading is slowed by TCP,
  /// not buffered. A response is always queued whole, so a connection holds at most this plus
  /// one response.
  public var queuedBytesPerConnection = 1_024 * 1_024
  /// Response bytes queued for all connections together at which a connection that still has
  /// bytes queued gets no further request handled; one whose queue is empty still does, so a
  /// client that reads its responses is served while others are held back.
  public var queuedBytes = 32 * 1_024 * 1_024

  /// The defaults: 16 KiB of head, 1 MiB of body, 64 connections, 30 s, 1 MiB queued per
  /// connection and 32 MiB in all.
  public init() {}
}
