/// One parsed HTTP/1.x request.
public struct HTTPRequest: Sendable, Hashable {
  /// The method as sent (`GET`, `POST`, …; methods are case-sensitive).
  public var method: String
  /// The request target as sent (`/state.json?x=1`).
  public var target: String
  /// `1` for HTTP/1.1, `0` for HTTP/1.0.
  public var minorVersion: Int
  /// The header fields in order, names as sent.
  public var headers: [HTTPHeader]
  /// The body (`Content-Length` bytes; empty without one).
  public var body: [UInt8]

  public init(method: String, target: String, minorVersion: Int = 1, headers: [HTTPHeader] = [], body: [UInt8] = []) {
    self.method = method
    self.target = target
    self.minorVersion = minorVersion
    self.headers = headers
    self.body = body
  }

  /// The target without its query (`/state.json`).
  public var path: String {
    guard let mark = target.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return target }
    return String(target[..<mark])
  }

  /// The value of the first header named `name` (compared without case).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`,
  /// HTTP/1.0 only with `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
    if minorVersion == 0 { return tokens.contains("keep-alive") }
    return !tokens.contains("close")
  }
}

/// One header field.
public struct HTTPHeader: Sendable, Hashable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

extension Substring {
  /// Without leading and trailing spaces and tabs.
  var trimmingSpaces: Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return text
  }
}
