// Invariants of this file (the only place FlowHTTP calls the socket API on raw memory):
// - Every pointer handed to a system call comes from `withUnsafe…` on a value or array that
//   lives for the whole call, with the byte count of that storage; nothing escapes the closure.
// - `sockaddr_in`/`sockaddr_in6` are zero-initialised structs passed with their own size.
// - A file descriptor returned here is owned by the caller, which closes it exactly once.
// - Sockets are non-blocking (server side), and sends use MSG_NOSIGNAL (SO_NOSIGPIPE on Darwin)
//   so a closed peer is an error result, never a SIGPIPE.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers of the socket system calls the server needs.
package enum UnsafeSocket {
  /// A listening, non-blocking TCP socket on `host` (an IPv4 or IPv6 literal, or `localhost`)
  /// and `port` (0: the system picks); returns it and the port it got.
  static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(HTTPServerError) -> (
    fd: Int32, port: UInt16
  ) {
    var literal = host == "localhost" ? "127.0.0.1" : host
    if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
    var v4 = sockaddr_in()
    var v6 = sockaddr_in6()
    let family: Int32
    if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
      family = AF_INET
      v4.sin_family = sa_family_t(AF_INET)
      v4.sin_port = port.bigEndian
    } else if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
      family = AF_INET6
      v6.sin6_family = sa_family_t(AF_INET6)
      v6.sin6_port = port.bigEndian
    } else {
      throw HTTPServerError("'\(host)' is not an IP address (use 127.0.0.1, ::1, localhost or another literal address)")
    }
    #if canImport(Glibc)
    let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(family, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw HTTPServerError("cannot open a socket: \(errorText())") }
    var yes: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    let bound: Int32
    if family == AF_INET {
      bound = withUnsafePointer(to: &v4) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    } else {
      bound = withUnsafePointer(to: &v6) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    }
    guard bound == 0 else {
      let reason = errorText()
      close(fd)
      throw HTTPServerError("cannot listen on \(host) port \(port): \(reason)")
    }
    guard Glibc_listen(fd, backlog) == 0, setNonBlocking(fd) else {
      let reason = errorText()
      close(fd)
      throw HTTPServerError("cannot listen on \(host) port \(port): \(reason)")
    }
    return (fd, localPort(fd, family: family))
  }

  private static func Glibc_listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.listen(fd, backlog)
    #else
    Darwin.listen(fd, backlog)
    #endif
  }

  /// The port a bound socket got.
  static func localPort(_ fd: Int32, family: Int32) -> UInt16 {
    if family == AF_INET {
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
      }
      return UInt16(bigEndian: address.sin_port)
    }
    var address = sockaddr_in6()
    var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin6_port)
  }

  /// A pending connection, non-blocking, or nil when none waits (or on an error).
  static func accept(_ fd: Int32) -> Int32? {
    #if canImport(Glibc)
    let client = Glibc.accept(fd, nil, nil)
    #else
    let client = Darwin.accept(fd, nil, nil)
    #endif
    guard client >= 0 else { return nil }
    guard setNonBlocking(client) else {
      close(client)
      return nil
    }
    #if canImport(Darwin)
    var yes: Int32 = 1
    _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return client
  }

  /// What a read gave.
  enum ReadResult: Equatable {
    case bytes(Int)
    case wouldBlock
    case closed
  }

  /// Reads at most `buffer.count` bytes into `buffer`.
  static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 { return .bytes(count) }
    if count == 0 { return .closed }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .closed
  }

  /// Sends what it can of `bytes`: the count sent, 0 if the socket is full, nil if it failed.
  package static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
    #if canImport(Glibc)
    let flags = Int32(MSG_NOSIGNAL)
    #else
    let flags: Int32 = 0
    #endif
    let count = bytes.withUnsafeBytes { raw in
      #if canImport(Glibc)
      Glibc.send(fd, raw.baseAddress, raw.count, flags)
      #else
      Darwin.send(fd, raw.baseAddress, raw.count, flags)
      #endif
    }
    if count >= 0 { return count }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
  }

  /// `poll(2)` over `fds`; the count of ready descriptors (0 on timeout or EINTR).
  static func poll(_ fds: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
    let result = fds.withUnsafeMutableBufferPointer { buffer in
      #if canImport(Glibc)
      Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
      #else
      Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
      #endif
    }
    return max(0, result)
  }

  /// A pipe, both ends non-blocking (the loop's wake-up).
  static func pipe() throws(HTTPServerError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    let result = ends.withUnsafeMutableBufferPointer {
      #if canImport(Glibc)
      Glibc.pipe($0.baseAddress)
      #else
      Darwin.pipe($0.baseAddress)
      #endif
    }
    guard result == 0, setNonBlocking(ends[0]), setNonBlocking(ends[1]) else {
      throw HTTPServerError("cannot make a pipe: \(errorText())")
    }
    return (ends[0], ends[1])
  }

  /// Writes one byte to a pipe (a full pipe already wakes the reader).
  static func poke(_ fd: Int32) {
    var byte: UInt8 = 1
    _ = withUnsafeBytes(of: &byte) {
      #if canImport(Glibc)
      Glibc.write(fd, $0.baseAddress, 1)
      #else
      Darwin.write(fd, $0.baseAddress, 1)
      #endif
    }
  }

  /// Empties a non-blocking pipe.
  static func drain(_ fd: Int32) {
    var buffer = [UInt8](repeating: 0, count: 256)
    while buffer.withUnsafeMutableBytes({
      #if canImport(Glibc)
      Glibc.read(fd, $0.baseAddress, $0.count)
      #else
      Darwin.read(fd, $0.baseAddress, $0.count)
      #endif
    }) > 0 {}
  }

  package static func close(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
  }

  static func setNonBlocking(_ fd: Int32) -> Bool {
    // Close-on-exec too: a child a host spawns must not keep a socket or the wake-up pipe open.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let flags = fcntl(fd, F_GETFL, 0)
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
  }

  package static func errorText() -> String { String(cString: strerror(errno)) }
}
