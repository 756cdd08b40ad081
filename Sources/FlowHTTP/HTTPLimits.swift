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

  /// The defaults of SPEC §8: 16 KiB of head, 1 MiB of body, 64 connections, 30 s.
  public init() {}
}
