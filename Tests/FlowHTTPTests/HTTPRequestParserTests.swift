import FlowTestSupport
import Testing
@testable import FlowHTTP

@Suite struct HTTPRequestParserTests {
  func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
    var parser = HTTPRequestParser(limits: limits)
    parser.append(Array(text.utf8))
    return parser.next()
  }

  func status(_ outcome: HTTPRequestParser.Outcome) -> Int? {
    if case .failure(let status, _) = outcome { return status }
    return nil
  }

  @Test func aCompleteRequestParsesWithItsHeadersAndBody() {
    let outcome = parse("POST /edit?x=1 HTTP/1.1\r\nHost: localhost:7780\r\nContent-Length: 5\r\nX-A:  b \r\n\r\nhello")
    guard case .request(let request) = outcome else { Issue.record("\(outcome)"); return }
    #expect(request.method == "POST")
    #expect(request.target == "/edit?x=1")
    #expect(request.path == "/edit")
    #expect(request.minorVersion == 1)
    #expect(request.header("host") == "localhost:7780")
    #expect(request.header("X-A") == "b")
    #expect(request.body == Array("hello".utf8))
    #expect(request.keepsAlive)
  }

  @Test func pipelinedRequestsComeOutOneByOneAndIncompleteOnesWait() {
    var parser = HTTPRequestParser()
    parser.append(Array("GET /a HTTP/1.1\r\nHost: h:1\r\n\r\nGET /b HTTP/1.0\r\n\r\nGET /c HTTP/1.1\r\nHo".utf8))
    guard case .request(let first) = parser.next(), case .request(let second) = parser.next() else {
      Issue.record("two requests expected"); return
    }
    #expect(first.target == "/a")
    #expect(second.target == "/b")
    #expect(!second.keepsAlive)
    #expect(parser.next() == .incomplete)
    #expect(parser.hasPartialRequest)
    parser.append(Array("st: h:1\r\n\r\n".utf8))
    guard case .request(let third) = parser.next() else { Issue.record("third"); return }
    #expect(third.target == "/c")
    #expect(!parser.hasPartialRequest)
  }

  /// Property: however the bytes are split into reads, the same requests come out.
  @Test func anySplitOfTheBytesGivesTheSameRequests() {
    let text =
      "GET /x HTTP/1.1\r\nHost: a:1\r\n\r\nPOST /y HTTP/1.1\r\nHost: a:1\r\nContent-Length: 3\r\n\r\nabcGET /z HTTP/1.1\nHost: a:1\n\n"
    let bytes = Array(text.utf8)
    var generator = SeededRandom(seed: 7)
    for _ in 0..<300 {
      var parser = HTTPRequestParser()
      var targets: [String] = []
      var offset = 0
      while offset < bytes.count {
        let size = Int(generator.next() % 9) + 1
        parser.append(bytes[offset..<min(bytes.count, offset + size)])
        offset += size
        while case .request(let request) = parser.next() {
          targets.append(request.target + String(decoding: request.body, as: UTF8.self))
        }
      }
      #expect(targets == ["/x", "/yabc", "/z"])
    }
  }

  @Test(arguments: [
    "GET\r\n\r\n", "GET / HTTP/1.1 extra\r\nHost: a:1\r\n\r\n", "GET  / HTTP/1.1\r\nHost: a:1\r\n\r\n",
    "GET noslash HTTP/1.1\r\nHost: a:1\r\n\r\n", "G(T / HTTP/1.1\r\nHost: a:1\r\n\r\n",
    "GET / HTTX/1.1\r\nHost: a:1\r\n\r\n",
    "GET / HTTP/1.1\r\nHost a:1\r\n\r\n", "GET / HTTP/1.1\r\nHost : a:1\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a:1\r\n folded\r\n\r\n",
    "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n",
    "GET /\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "\u{16}\u{3}\u{1}\u{0}\r\n\r\n"
  ])
  func malformedRequestsAreRefusedWith400(_ text: String) {
    #expect(status(parse(text)) == 400)
  }

  @Test func theRightStatusForEachRefusal() {
    var small = HTTPLimits()
    small.headBytes = 100
    small.bodyBytes = 10
    small.headerCount = 3
    #expect(status(parse("GET /" + String(repeating: "a", count: 200), limits: small)) == 431)
    #expect(
      status(parse("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 120) + "\r\n\r\n", limits: small))
        == 431)
    #expect(status(parse("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: small)) == 431)
    #expect(status(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: small)) == 413)
    #expect(status(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n")) == 400)
    #expect(status(parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")) == 411)
    #expect(status(parse("GET / HTTP/2.0\r\nHost: a\r\n\r\n")) == 505)
    // The default limits: 16 KiB of head, 1 MiB of body.
    #expect(status(parse("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 17_000))) == 431)
    #expect(status(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n")) == 413)
    #expect(status(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048576\r\n\r\n")) == nil)
  }

  @Test func afterARefusalTheParserStaysFailed() {
    var parser = HTTPRequestParser()
    parser.append(Array("BAD\r\n\r\n".utf8))
    #expect(status(parser.next()) == 400)
    parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
    #expect(status(parser.next()) == 400)
  }
}
