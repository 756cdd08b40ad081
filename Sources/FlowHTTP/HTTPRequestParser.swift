/// Reads HTTP/1.x requests from the bytes of one connection: a pure state machine, fed bytes
/// as they arrive, answering with the next complete request or the status that refuses it.
///
/// Rules (RFC 9112, strictly where strictness costs nothing): the request line is
/// `METHOD SP origin-form SP HTTP/1.x` (or `*` for `OPTIONS`); lines end in CRLF (a bare LF is
/// accepted); header names are tokens with no space before the colon; folded lines, control
/// characters, a missing `Host` in HTTP/1.1, `Transfer-Encoding` (bodies are `Content-Length`
/// only: 411) and conflicting lengths are refused. The head may hold `HTTPLimits.headBytes`
/// (431 past it) and `headerCount` lines; a body `bodyBytes` (413, refused before it is read).
///
/// Invariants: `buffer[..<scanned]` holds no head terminator; after a `.failure` the parser
/// answers `.failure` again (the connection must close); nothing is quadratic in the input
/// (each byte is scanned for the terminator once).
public struct HTTPRequestParser: Sendable {
  /// What the bytes so far make.
  public enum Outcome: Sendable, Equatable {
    /// No complete request yet.
    case incomplete
    /// A complete request (more may follow in the buffer: call `next()` again).
    case request(HTTPRequest)
    /// The bytes are refused with this status; the connection must close.
    case failure(status: Int, reason: String)
  }

  let limits: HTTPLimits
  /// Bytes received and not yet consumed.
  private(set) var buffer: [UInt8] = []
  /// How much of `buffer` is known to hold no head terminator.
  private var scanned = 0
  /// A parsed head waiting for its body.
  private var waiting: (request: HTTPRequest, length: Int)?
  private var failed: Outcome?

  public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

  /// Whether part of a request has arrived (for the request timeout: 408 vs. a silent close).
  public var hasPartialRequest: Bool { !buffer.isEmpty || waiting != nil }

  /// Adds received bytes.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    guard failed == nil else { return }
    buffer.append(contentsOf: bytes)
  }

  /// The next request the buffer holds, if complete.
  public mutating func next() -> Outcome {
    if let failed { return failed }
    let outcome = parse()
    if case .failure = outcome {
      failed = outcome
      buffer = []
    }
    return outcome
  }

  private mutating func parse() -> Outcome {
    if waiting == nil {
      guard let end = headEnd() else {
        if buffer.count > limits.headBytes {
          return .failure(status: 431, reason: "the request head is larger than \(limits.headBytes) bytes")
        }
        return .incomplete
      }
      if end.head > limits.headBytes {
        return .failure(status: 431, reason: "the request head is larger than \(limits.headBytes) bytes")
      }
      let head = buffer[..<end.head]
      buffer.removeFirst(end.body)
      scanned = 0
      switch Self.parseHead(head, limits: limits) {
      case .failure(let status, let reason): return .failure(status: status, reason: reason)
      case .success(let request, let length): waiting = (request, length)
      }
    }
    guard let (pending, length) = waiting else { return .incomplete }
    guard buffer.count >= length else { return .incomplete }
    var request = pending
    request.body = Array(buffer[..<length])
    buffer.removeFirst(length)
    waiting = nil
    return .request(request)
  }

  /// Where the head ends (before the blank line) and the body starts, if the buffer holds a
  /// blank line; scans each byte once.
  private mutating func headEnd() -> (head: Int, body: Int)? {
    var index = max(0, scanned - 3)
    let count = buffer.count
    while index < count {
      if buffer[index] == 10 {
        // LF LF, or LF CR LF.
        if index + 1 < count, buffer[index + 1] == 10 { return (lineStart(index), index + 2) }
        if index + 2 < count, buffer[index + 1] == 13, buffer[index + 2] == 10 { return (lineStart(index), index + 3) }
      }
      index += 1
    }
    scanned = count
    return nil
  }

  /// The head's end for a line feed at `index` (before its CR, if any).
  private func lineStart(_ index: Int) -> Int { index > 0 && buffer[index - 1] == 13 ? index - 1 : index }

  enum Head {
    case success(HTTPRequest, length: Int)
    case failure(Int, String)
  }

  /// Parses the request line and headers (without the blank line).
  static func parseHead(_ head: ArraySlice<UInt8>, limits: HTTPLimits) -> Head {
    var lines: [ArraySlice<UInt8>] = []
    var start = head.startIndex
    for index in head.indices where head[index] == 10 {
      lines.append(head[start..<(index > start && head[index - 1] == 13 ? index - 1 : index)])
      start = index + 1
    }
    lines.append(head[start...])
    // RFC 9112 §2.2: ignore at least one empty line before the request line.
    while let first = lines.first, first.isEmpty, lines.count > 1 { lines.removeFirst() }
    guard lines.count - 1 <= limits.headerCount else {
      return .failure(431, "more than \(limits.headerCount) header lines")
    }
    guard let requestLine = lines.first, let (method, target, minor) = parseRequestLine(requestLine) else {
      return .failure(400, "malformed request line")
    }
    if minor < 0 { return .failure(505, "only HTTP/1.0 and HTTP/1.1 are served") }
    var headers: [HTTPHeader] = []
    for line in lines.dropFirst() {
      guard let header = parseHeader(line) else { return .failure(400, "malformed header line") }
      headers.append(header)
    }
    var request = HTTPRequest(method: method, target: target, minorVersion: minor, headers: headers)
    if minor == 1 && headers.filter({ $0.name.lowercased() == "host" }).count != 1 {
      return .failure(400, "an HTTP/1.1 request needs exactly one Host header")
    }
    // Headers whose one value decides access (the page's origin, its fetch site, its token): a
    // second copy is refused like a second Host, never silently ignored.
    for name in ["Origin", "Sec-Fetch-Site", "X-Flow-Token"]
    where headers.filter({ $0.name.lowercased() == name.lowercased() }).count > 1 {
      return .failure(400, "more than one \(name) header")
    }
    if request.header("Transfer-Encoding") != nil { return .failure(411, "request bodies must carry Content-Length") }
    let lengths = Set(headers.filter { $0.name.lowercased() == "content-length" }.map(\.value))
    guard lengths.count <= 1 else { return .failure(400, "conflicting Content-Length headers") }
    var length = 0
    if let text = lengths.first {
      guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text)
      else {
        return .failure(400, "Content-Length is not a number")
      }
      guard value <= limits.bodyBytes else { return .failure(413, "the body is larger than \(limits.bodyBytes) bytes") }
      length = value
    }
    request.body = []
    return .success(request, length: length)
  }

  /// `METHOD SP target SP HTTP/1.x`; the minor version is -1 for another version.
  static func parseRequestLine(_ line: ArraySlice<UInt8>) -> (String, String, Int)? {
    let parts = line.split(separator: 32, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { return nil }
    let target = parts[1]
    guard let first = target.first, first == 47 || (target.count == 1 && first == 42),
      target.allSatisfy({ $0 > 32 && $0 < 127 })
    else { return nil }
    let version = Array(parts[2])
    let prefix = Array("HTTP/".utf8)
    guard version.count == 8, Array(version[0..<5]) == prefix, version[6] == 46,
      version[5] >= 48, version[5] <= 57, version[7] >= 48, version[7] <= 57
    else { return nil }
    let minor = version[5] == 49 && (version[7] == 48 || version[7] == 49) ? Int(version[7] - 48) : -1
    return (String(decoding: parts[0], as: UTF8.self), String(decoding: target, as: UTF8.self), minor)
  }

  /// `name: value`, the name a token, the value without surrounding spaces and without
  /// control characters other than tab.
  static func parseHeader(_ line: ArraySlice<UInt8>) -> HTTPHeader? {
    guard let colon = line.firstIndex(of: 58), colon > line.startIndex else { return nil }
    let name = line[line.startIndex..<colon]
    guard name.allSatisfy(isTokenByte) else { return nil }
    let value = line[(colon + 1)...]
    guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return nil }
    let text = Substring(String(decoding: value, as: UTF8.self)).trimmingSpaces
    return HTTPHeader(String(decoding: name, as: UTF8.self), String(text))
  }

  /// RFC 9110 `tchar`.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: true
    default: false
    }
  }
}
