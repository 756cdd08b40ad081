import Testing

@testable import FlowHTTP

@Suite struct HTTPHostPolicyTests {
  let policy = HTTPHostPolicy(allowedHosts: ["localhost", "127.0.0.1", "[::1]"], port: 8080)

  @Test func onlyAnAllowedNameWithTheServersOwnPortSpellingPasses() {
    #expect(policy.allows(host: "localhost:8080"))
    #expect(policy.allows(host: "LocalHost:8080"))
    #expect(policy.allows(host: "127.0.0.1:8080"))
    #expect(policy.allows(host: "[::1]:8080"))
    #expect(!policy.allows(host: nil))
    #expect(!policy.allows(host: "localhost"))
    #expect(!policy.allows(host: "[::1]"))
    #expect(!policy.allows(host: "evil.example:8080"))
    #expect(!policy.allows(host: "localhost:8081"))
    #expect(!policy.allows(host: "localhost:+8080"))
    #expect(!policy.allows(host: "localhost:08080"))
  }

  @Test func aRefusedHostIsAnswered403AndClosedWithoutADispatch() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0, hostPolicy: policy)
    let actions = machine.received(Array("GET / HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n".utf8), now: 1)
    guard case .send(let bytes) = actions.first else {
      Issue.record("\(actions)")
      return
    }
    #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 403")
    #expect(actions.last == .closeAfterSending)
    #expect(actions.count == 2)
    #expect(machine.state == .closing)
    #expect(machine.deadline == nil)
  }

  @Test func anAllowedHostIsDispatched() {
    var machine = HTTPConnectionMachine(limits: HTTPLimits(), now: 0, hostPolicy: policy)
    let actions = machine.received(Array("GET /a HTTP/1.1\r\nHost: localhost:8080\r\n\r\n".utf8), now: 1)
    guard case .dispatch(let request) = actions.first else {
      Issue.record("\(actions)")
      return
    }
    #expect(request.target == "/a")
    #expect(machine.state == .handling(keepAlive: true))
  }
}
