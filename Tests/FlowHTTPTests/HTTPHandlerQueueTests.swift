import Dispatch
import Testing
@testable import FlowHTTP
import FlowHTTPTestSupport

/// Handlers run on the server's own queues: a process whose Dispatch global queue is full of
/// blocked work (an app's blocking I/O, a test's clients) is still answered at once. On the
/// global queue the answer would wait until Dispatch grew its pool past every blocked worker,
/// about a second per thread.
@Suite(.serialized) struct HTTPHandlerQueueTests {
  @Test func aServerAnswersWhileTheGlobalQueueIsFullOfBlockedWork() throws {
    let server = try HTTPServer(configuration: .init(port: 0)) { _ in
      HTTPResponse(status: 200, contentType: "text/plain", text: "still here")
    }
    defer { server.stop() }
    let blockers = 64
    let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
    for _ in 0..<blockers {
      DispatchQueue.global().async {
        started.signal()
        release.wait()
      }
    }
    defer { for _ in 0..<blockers { release.signal() } }
    // At least one blocker runs, so the global pool is busy with them from here on.
    started.wait()
    let client = try HTTPClientSocket(port: server.port, timeoutSeconds: 20)
    client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
    let response = client.response()
    #expect(response?.status == 200)
    #expect(response?.body == "still here")
  }
}
