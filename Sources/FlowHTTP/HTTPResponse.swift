/// A response to one request: a status, headers and a body, or the start of an event stream.
public struct HTTPResponse: Sendable {
  /// The status code (`200`, `404`, …).
  public var status: Int
  /// Extra header fields; `Content-Length`, `Connection`, `Transfer-Encoding` and `Date`-less
  /// framing are added by the server.
  public var headers: [HTTPHeader]
  /// The body, or for an event stream its first chunk.
  public var body: [UInt8]
  /// When true the connection becomes a `text/event-stream`: the response is chunked, stays
  /// open, and receives every `HTTPServer.publish(_:)` until either side closes.
  public var opensEventStream: Bool

  public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], opensEventStream: Bool = false) {
    self.status = status
    self.headers = headers
    self.body = body
    self.opensEventStream = opensEventStream
  }

  /// A response with `text` as its body and `contentType` as its type.
  public init(status: Int, contentType: String, text: String, headers: [HTTPHeader] = []) {
    self.init(status: status, headers: [HTTPHeader("Content-Type", contentType)] + headers, body: Array(text.utf8))
  }

  /// A plain-text error response (`404 Not Found\n…`).
  public static func error(_ status: Int, _ message: String = "") -> HTTPResponse {
    let text = "\(status) \(reason(status))\n" + (message.isEmpty ? "" : message + "\n")
    return HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", text: text)
  }

  /// The reason phrase of `status`.
  public static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 204: "No Content"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 422: "Unprocessable Content"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }

  /// The bytes on the wire: status line, headers (with the framing the server adds), body.
  func serialized(keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for header in headers { head += "\(Self.clean(header.name)): \(Self.clean(header.value))\r\n" }
    if opensEventStream {
      head += "Transfer-Encoding: chunked\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n"
      return Array(head.utf8) + (body.isEmpty ? [] : Self.chunk(body))
    }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// One chunk of a chunked body.
  static func chunk(_ bytes: [UInt8]) -> [UInt8] {
    Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
  }

  /// The last chunk of a chunked body.
  static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

  /// A header name or value without CR, LF or NUL (no header injection).
  static func clean(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { return text }
    return String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }.map(Character.init))
  }
}
