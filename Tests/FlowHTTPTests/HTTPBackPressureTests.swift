import Synchronization
import Testing
@testable import FlowHTTP
import FlowHTTPTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pipelined requests from a client that does not read: the server stops handling them once
/// the client's queue of response bytes reaches its cap (back-pressure), keeps serving others,
/// and serves the held requests as the client reads.
@Suite(.serialized) struct HTTPBackPressureTests {
  static let request = Array("GET /big HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8)

  /// A machine fed `count` pipelined requests at once, answered with `bodyBytes` each, and
  /// drained by `drain` bytes after every response: its queue never passes the cap plus one
  /// response, and every request is dispatched exactly once, in order.
  func pipeline(count: Int, bodyBytes: Int, drain: Int, limits: HTTPLimits) -> (
    maxQueued: Int, dispatched: Int, response: Int
  ) {
    var machine = HTTPConnectionMachine(limits: limits, now: 0)
    let response = HTTPResponse(status: 200, headers: [], body: [UInt8](repeating: 65, count: bodyBytes))
    let responseBytes = response.serialized(keepAlive: true).count
    var pending = machine.received(Array(repeating: Self.request, count: count).joined(), now: 0)
    var dispatched = 0, maxQueued = 0, rounds = 0
    while rounds < 100 * count {
      rounds += 1
      var next: [HTTPConnectionMachine.Action] = []
      for action in pending {
        if case .dispatch = action {
          dispatched += 1
          next += machine.responded(response, now: 0)
        }
      }
      maxQueued = max(maxQueued, machine.queuedBytes)
      if next.isEmpty {
        guard machine.queuedBytes > 0 else { break }
        next = machine.sent(min(drain, machine.queuedBytes), now: 0)
      }
      pending = next
    }
    return (maxQueued, dispatched, responseBytes)
  }

  @Test func thousandsOfPipelinedRequestsNeverQueueMoreThanTheCapPlusOneResponse() {
    var limits = HTTPLimits()
    limits.queuedBytesPerConnection = 64 * 1_024
    for (bodyBytes, drain) in [(1_000, 10_000), (30_000, 4_096), (200_000, 65_536), (10, 1)] {
      let result = pipeline(count: 5_000, bodyBytes: bodyBytes, drain: drain, limits: limits)
      #expect(result.dispatched == 5_000, "every request is served once the client reads")
      #expect(
        result.maxQueued <= max(limits.queuedBytesPerConnection - 1, 0) + result.response,
        "queued \(result.maxQueued) with responses of \(result.response) bytes")
    }
  }

  @Test func aHeldMachineWantsNoInputAndGoesOnWhenItsQueueDrains() {
    var limits = HTTPLimits()
    limits.queuedBytesPerConnection = 100
    var machine = HTTPConnectionMachine(limits: limits, now: 0)
    let two = Array(Self.request + Self.request)
    #expect(machine.received(two, now: 0).count == 1)
    let big = HTTPResponse(status: 200, headers: [], body: [UInt8](repeating: 66, count: 500))
    let actions = machine.responded(big, now: 0)
    #expect(actions.count == 1, "the second request waits: the queue is past the cap")
    #expect(machine.isHeld && !machine.wantsInput(serverFull: false))
    #expect(machine.sent(machine.queuedBytes - 150, now: 0).isEmpty, "150 bytes left: still at the cap")
    #expect(machine.sent(100, now: 0).count == 1, "below the cap: the held request is dispatched")
    #expect(!machine.isHeld)
  }

  @Test func whenTheServerIsFullOnlyAConnectionWithAnEmptyQueueIsServed() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    #expect(machine.received(Array(Self.request + Self.request + Self.request), now: 0).count == 1)
    let small = HTTPResponse(status: 200, contentType: "text/plain", text: "ok")
    #expect(machine.responded(small, now: 0, serverFull: true).count == 1, "held: its queue is not empty")
    #expect(machine.resume(now: 0, serverFull: true).isEmpty)
    #expect(machine.resume(now: 0, serverFull: false).count == 1, "the server's queue shrank")
    _ = machine.responded(small, now: 0, serverFull: true)
    #expect(machine.sent(machine.queuedBytes, now: 0, serverFull: true).count == 1, "an empty queue is always served")
  }

  /// ```
  /// client A                     server                               client B
  /// 2,000 × GET /big ─────────▶  handles until A's queue holds 64 KiB
  /// (reads nothing)              stops reading A (held)
  ///                              ◀──────────────────────────────────  GET /hello
  ///                              200 hello ─────────────────────────▶
  /// reads everything ◀────────── the held requests, as A drains
  /// ```
  @Test func aClientPipeliningWithoutReadingIsHeldAtItsCapWhileOthersAreServed() throws {
    var limits = HTTPLimits()
    limits.queuedBytesPerConnection = 64 * 1_024
    limits.queuedBytes = 256 * 1_024
    let handled = Atomic<Int>(0)
    let body = [UInt8](repeating: 66, count: 32 * 1_024)
    let server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0, limits: limits)) { request in
      if request.path == "/big" { handled.add(1, ordering: .relaxed) }
      return request.path == "/big"
        ? HTTPResponse(status: 200, headers: [], body: body)
        : HTTPResponse(status: 200, contentType: "text/plain", text: "hello")
    }
    defer { server.stop() }
    let responseBytes = HTTPResponse(status: 200, headers: [], body: body).serialized(keepAlive: true).count
    let count = 2_000
    let a = try HTTPClientSocket(port: server.port, timeoutSeconds: 30)
    #expect(
      a.send(
        Array(repeating: Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8), count: count)
          .joined().map { $0 }))
    // Wait (on the server's own accounting, not a clock) until A's queue reaches its cap.
    var spins = 0
    while server.queuedResponseBytes < limits.queuedBytesPerConnection && spins < 50_000_000 {
      sched_yield()
      spins += 1
    }
    let queued = server.queuedResponseBytes
    #expect(queued >= limits.queuedBytesPerConnection, "A's queue filled (the kernel's buffers are full)")
    #expect(queued <= limits.queuedBytesPerConnection + responseBytes, "queued \(queued)")
    #expect(handled.load(ordering: .relaxed) < count, "the server stopped handling A's requests")

    let b = try HTTPClientSocket(port: server.port)
    b.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    #expect(b.response()?.body == "hello", "another client is served")
    #expect(server.queuedResponseBytes <= limits.queuedBytesPerConnection + responseBytes)

    var received = 0
    while received < count * responseBytes {
      let chunk = a.receive()
      if chunk.isEmpty { break }
      received += chunk.count
    }
    #expect(received == count * responseBytes, "every held request is answered as A reads")
    #expect(handled.load(ordering: .relaxed) == count)
  }
}
