// Invariants of this file (a blocking client socket for tests and measurements, not API):
// - Every pointer handed to a system call comes from `withUnsafe…` on storage that lives for
//   the whole call, with that storage's byte count.
// - The descriptor is owned by the instance and closed exactly once (`close()` is idempotent).
// - Receives time out (SO_RCVTIMEO), so a test never hangs on a server that stays silent.
// - `@unchecked Sendable`: tests hand a connection to a Dispatch thread for blocking reads, and
//   use it from one thread at a time (each call completes before the next is made); the
//   instance has no other shared state.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowHTTP

/// A blocking TCP connection to a loopback port, for tests of `HTTPServer` and of the hosts
/// built on it: raw bytes out, bytes or one parsed response in.
package final class HTTPClientSocket: @unchecked Sendable {
  private var fd: Int32

  /// Connects to `127.0.0.1:port`; receives time out after `timeoutSeconds`.
  package init(port: UInt16, timeoutSeconds: Int = 10) throws(HTTPServerError) {
    #if canImport(Glibc)
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw HTTPServerError("socket: \(UnsafeSocket.errorText())") }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
    var yes: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    _ = inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let reason = UnsafeSocket.errorText()
      close()
      throw HTTPServerError("connect to port \(port): \(reason)")
    }
  }

  deinit { close() }

  /// Sends every byte (false if the connection failed).
  @discardableResult
  package func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard let count = UnsafeSocket.send(fd, bytes[offset...]), count > 0 else { return false }
      offset += count
    }
    return true
  }

  @discardableResult
  package func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// One read: the bytes, empty at the end of the stream (or on a timeout or error).
  package func receive() -> [UInt8] {
    guard fd >= 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return count > 0 ? Array(buffer[..<count]) : []
  }

  /// Reads until the peer closes (or a receive times out).
  package func receiveAll() -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
      let chunk = receive()
      if chunk.isEmpty { return bytes }
      bytes += chunk
    }
  }

  /// Bytes read but not yet returned by `response()`.
  private var pending: [UInt8] = []

  /// Reads one complete response framed by `Content-Length` (nil if the connection ended
  /// first): its status, headers (names lowercased) and body.
  package func response() -> (status: Int, headers: [String: String], body: String)? {
    while true {
      if let parsed = Self.parseResponse(&pending) { return parsed }
      let chunk = receive()
      if chunk.isEmpty { return nil }
      pending += chunk
    }
  }

  /// Reads until `bytes` (as text) contains `marker`; returns everything read (nil on the end
  /// of the stream first).
  package func receive(until marker: String) -> String? {
    while true {
      let text = String(decoding: pending, as: UTF8.self)
      if let range = text.range(of: marker) {
        let upTo = String(text[..<range.upperBound])
        pending = Array(text[range.upperBound...].utf8)
        return upTo
      }
      let chunk = receive()
      if chunk.isEmpty { return nil }
      pending += chunk
    }
  }

  /// Parses and removes one response from `bytes`, if complete.
  static func parseResponse(_ bytes: inout [UInt8]) -> (status: Int, headers: [String: String], body: String)? {
    guard let end = bytes.indices.first(where: { $0 + 3 < bytes.count && bytes[$0...$0 + 3] == [13, 10, 13, 10] })
    else { return nil }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingCharacters(in: " ")
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    guard bytes.count >= end + 4 + length else { return nil }
    let body = String(decoding: bytes[(end + 4)..<(end + 4 + length)], as: UTF8.self)
    bytes.removeFirst(end + 4 + length)
    return (status, headers, body)
  }

  /// Closes the connection (idempotent).
  package func close() {
    guard fd >= 0 else { return }
    UnsafeSocket.close(fd)
    fd = -1
  }
}

extension String {
  /// Without leading and trailing `character`s.
  fileprivate func trimmingCharacters(in character: Character) -> String {
    var text = Substring(self)
    while text.first == character { text.removeFirst() }
    while text.last == character { text.removeLast() }
    return String(text)
  }
}
