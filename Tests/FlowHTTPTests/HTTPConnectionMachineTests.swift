import Testing
@testable import FlowHTTP

@Suite struct HTTPConnectionMachineTests {
  let second: UInt64 = 1_000_000_000

  func sentStatus(_ actions: [HTTPConnectionMachine.Action]) -> Int? {
    for case .send(let bytes) in actions {
      let text = String(decoding: bytes.prefix(12), as: UTF8.self)
      return Int(text.dropFirst(9).prefix(3))
    }
    return nil
  }

  @Test func aSlowSenderGets408AtTheDeadlineAndAnIdleConnectionJustCloses() {
    var slow = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    #expect(slow.received(Array("GET / HTTP/1.1\r\n".utf8), now: 5 * second).isEmpty)
    #expect(slow.tick(now: 29 * second).isEmpty)
    let actions = slow.tick(now: 30 * second)
    #expect(sentStatus(actions) == 408)
    #expect(actions.last == .closeAfterSending)
    #expect(slow.state == .closing)

    var idle = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    #expect(idle.tick(now: 31 * second) == [.closeAfterSending])
  }

  @Test func keepAliveRearmsTheDeadlineAndHandlingStopsIt() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    let actions = machine.received(Array("GET /a HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8), now: second)
    guard case .dispatch(let request) = actions.first else { Issue.record("\(actions)"); return }
    #expect(request.target == "/a")
    #expect(machine.deadline == nil)
    #expect(machine.tick(now: 100 * second).isEmpty)  // a slow handler is not the client's fault
    let sent = machine.responded(HTTPResponse(status: 200, contentType: "text/plain", text: "ok"), now: 100 * second)
    #expect(sentStatus(sent) == 200)
    #expect(machine.state == .reading)
    #expect(machine.deadline == 130 * second)
  }

  @Test func anErrorResponseOrConnectionCloseEndsTheConnection() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    _ = machine.received(Array("GET /a HTTP/1.1\r\nHost: h:1\r\nConnection: close\r\n\r\n".utf8), now: 0)
    #expect(machine.responded(HTTPResponse(status: 200), now: 0).last == .closeAfterSending)
    var refused = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    _ = refused.received(Array("GET /a HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8), now: 0)
    #expect(refused.responded(.error(404), now: 0).last == .closeAfterSending)
  }

  @Test func aPipelinedRequestWaitsForTheResponseBeforeItIsDispatched() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    let first = machine.received(
      Array("GET /a HTTP/1.1\r\nHost: h:1\r\n\r\nGET /b HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8), now: 0)
    #expect(first.count == 1)
    let next = machine.responded(HTTPResponse(status: 204), now: 0)
    #expect(next.contains { if case .dispatch(let request) = $0 { request.target == "/b" } else { false } })
  }

  @Test func anEventStreamHasNoDeadlineAndIgnoresInput() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0)
    _ = machine.received(Array("GET /events HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8), now: 0)
    let actions = machine.responded(HTTPResponse(status: 200, opensEventStream: true), now: 0)
    guard case .send(let bytes) = actions.first else { Issue.record("no head"); return }
    #expect(String(decoding: bytes, as: UTF8.self).contains("Transfer-Encoding: chunked"))
    #expect(machine.state == .streaming)
    #expect(machine.tick(now: 1_000 * second).isEmpty)
    #expect(machine.received(Array("junk".utf8), now: 0).isEmpty)
  }
}
