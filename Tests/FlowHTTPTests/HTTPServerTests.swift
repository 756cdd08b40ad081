import Synchronization
import Testing
@testable import FlowHTTP
import FlowHTTPTestSupport

/// A clock a test moves by hand (nanoseconds).
final class ManualNanoClock: Sendable {
  let value = Atomic<UInt64>(1_000)
  func advance(seconds: UInt64) { value.add(seconds * 1_000_000_000, ordering: .relaxed) }
  var now: @Sendable () -> UInt64 { { [self] in value.load(ordering: .relaxed) } }
}

/// End-to-end tests over loopback sockets: every hostile request is answered and the server
/// keeps serving.
@Suite(.serialized) struct HTTPServerTests {
  func makeServer(limits: HTTPLimits = HTTPLimits(), clock: ManualNanoClock? = nil) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration(port: 0, limits: limits)
    if let clock { configuration.now = clock.now }
    return try HTTPServer(configuration: configuration) { request in
      switch (request.method, request.path) {
      case ("GET", "/hello"): HTTPResponse(status: 200, contentType: "text/plain", text: "hello")
      case ("POST", "/echo"):
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: request.body)
      case ("GET", "/events"):
        HTTPResponse(
          status: 200, headers: [HTTPHeader("Content-Type", "text/event-stream")],
          body: Array(": open\n\n".utf8), opensEventStream: true)
      case (_, "/hello"), (_, "/echo"): .error(405)
      default: .error(404)
      }
    }
  }

  func get(_ path: String, _ server: HTTPServer, host: String? = nil) throws -> (status: Int, body: String)? {
    let client = try HTTPClientSocket(port: server.port)
    client.send("GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(server.port)")\r\n\r\n")
    return client.response().map { ($0.status, $0.body) }
  }

  /// Sends `text` and expects `status` and then the end of the connection.
  func expectRefusal(
    _ text: String, _ status: Int, _ server: HTTPServer, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let client = try HTTPClientSocket(port: server.port)
    client.send(text)
    let response = client.response()
    #expect(response?.status == status, sourceLocation: sourceLocation)
    #expect(response?.headers["connection"] == "close", sourceLocation: sourceLocation)
    #expect(client.receiveAll().isEmpty, "the connection closes", sourceLocation: sourceLocation)
    #expect(try get("/hello", server)?.body == "hello", "still serving", sourceLocation: sourceLocation)
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try HTTPClientSocket(port: server.port)
    let host = "Host: localhost:\(server.port)\r\n"
    client.send("GET /hello HTTP/1.1\r\n\(host)\r\nPOST /echo HTTP/1.1\r\n\(host)Content-Length: 4\r\n\r\nping")
    #expect(client.response()?.body == "hello")
    let echo = client.response()
    #expect(echo?.body == "ping")
    #expect(echo?.headers["connection"] == "keep-alive")
    client.send("GET /nope HTTP/1.1\r\n\(host)\r\n")
    #expect(client.response()?.status == 404)
  }

  @Test func malformedRequestLinesGet400AndAClosedConnection() throws {
    let server = try makeServer()
    defer { server.stop() }
    for text in [
      "HELLO\r\n\r\n", "GET / HTTP/1.1 x\r\n\r\n", "GET http://evil/ HTTP/1.1\r\nHost: x\r\n\r\n",
      "\u{0}\u{1}\u{2}\r\n\r\n"
    ] {
      try expectRefusal(text, 400, server)
    }
  }

  @Test func oversizeHeadersGet431AndOversizeBodies413() throws {
    let server = try makeServer()
    defer { server.stop() }
    let port = server.port
    try expectRefusal(
      "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431,
      server)
    try expectRefusal(
      "POST /echo HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2000000\r\n\r\n"
        + String(repeating: "b", count: 100_000), 413, server)
  }

  @Test func aSlowSenderGets408WhenTheInjectedClockPasses30Seconds() throws {
    let clock = ManualNanoClock()
    let server = try makeServer(clock: clock)
    defer { server.stop() }
    let slow = try HTTPClientSocket(port: server.port)
    slow.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n")  // never finished
    let idle = try HTTPClientSocket(port: server.port)
    #expect(try get("/hello", server)?.status == 200)
    clock.advance(seconds: 31)
    server.checkDeadlines()
    #expect(slow.response()?.status == 408)
    #expect(slow.receiveAll().isEmpty)
    #expect(idle.receiveAll().isEmpty, "an idle connection is closed without a response")
    #expect(try get("/hello", server)?.body == "hello")
  }

  @Test func seventyIdleConnectionsThe65thAndLaterAreRefusedWithoutHarm() throws {
    let server = try makeServer()
    defer { server.stop() }
    var clients: [HTTPClientSocket] = []
    for _ in 0..<64 { clients.append(try HTTPClientSocket(port: server.port)) }
    // The server has accepted them all once it answers on the first one.
    clients[0].send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    #expect(clients[0].response()?.status == 200)
    var extra: [HTTPClientSocket] = []
    for _ in 0..<6 { extra.append(try HTTPClientSocket(port: server.port)) }
    for client in extra {
      #expect(client.response()?.status == 503)
      #expect(client.receiveAll().isEmpty)
    }
    #expect(server.connectionCount == 64)
    // Idle connections still work, and once some close, new ones are served.
    clients[63].send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    #expect(clients[63].response()?.body == "hello")
    for client in clients.prefix(10) { client.close() }
    clients[63].send("GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    #expect(clients[63].response()?.status == 404)  // by now the server saw the closes
    #expect(try get("/hello", server)?.body == "hello")
  }

  @Test func aForeignHostIsRefusedWith403() throws {
    let server = try makeServer()
    defer { server.stop() }
    let port = server.port
    for host in [
      "evil.example:\(port)", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:\(port)", "[::1]",
      "localhost:+\(port)", "127.0.0.1:0\(port)", "localhost :\(port)", "localhost:\(port) x", "localhost:\t\(port)"
    ] {
      try expectRefusal("GET /hello HTTP/1.1\r\nHost: \(host)\r\n\r\n", 403, server)
    }
    #expect(try get("/hello", server, host: "localhost:\(server.port)")?.status == 200)
    #expect(try get("/hello", server, host: "[::1]:\(server.port)")?.status == 200)
  }

  @Test func aSecondOriginIsRefusedLikeASecondHost() throws {
    let server = try makeServer()
    defer { server.stop() }
    let host = "Host: 127.0.0.1:\(server.port)\r\n"
    try expectRefusal(
      "GET /hello HTTP/1.1\r\n\(host)Origin: http://evil.example\r\nOrigin: http://127.0.0.1:\(server.port)\r\n\r\n",
      400, server)
    try expectRefusal("GET /hello HTTP/1.1\r\n\(host)X-Flow-Token: a\r\nX-Flow-Token: b\r\n\r\n", 400, server)
  }

  @Test func theWrongMethodGets405() throws {
    let server = try makeServer()
    defer { server.stop() }
    try expectRefusal("DELETE /hello HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n", 405, server)
  }

  @Test func eventStreamsReceiveEveryPublishedEventAsChunks() throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try HTTPClientSocket(port: server.port)
    client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    #expect(client.receive(until: ": open\n\n")?.contains("Transfer-Encoding: chunked") == true)
    // The loop registers the stream before the next publish is read.
    while server.eventStreamCount == 0 { _ = try get("/hello", server) }
    server.publish(Array("data: one\n\n".utf8))
    server.publish(Array("data: two\n\n".utf8))
    let text = client.receive(until: "data: two\n\n") ?? ""
    #expect(text.contains("data: one\n\n"))
    server.stop()
    #expect(
      String(decoding: client.receiveAll(), as: UTF8.self).contains("0\r\n\r\n"), "the stream ends with the last chunk")
  }
}
