#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The phases of one turn of `HTTPServerLoop`, in the order it calls them.
extension HTTPConnectionTable {
  /// Hands each finished handler's response to its connection's machine (if still open).
  mutating func deliver(_ completions: [(connection: UInt64, response: HTTPResponse)], now: UInt64) {
    for (id, response) in completions {
      guard let fd = descriptorOf[id], connections[fd] != nil else { continue }
      let full = serverFull()
      let actions = connections[fd]!.machine.responded(response, now: now, serverFull: full)
      execute(actions, fd)
    }
  }

  /// Queues published events as one chunk on every open stream; a client too slow to keep up
  /// (past `HTTPLimits.streamBacklogBytes`) is closed.
  mutating func broadcast(_ events: [[UInt8]]) {
    guard !events.isEmpty else { return }
    let chunk = events.flatMap { HTTPResponse.chunk($0) }
    for (fd, connection) in connections where connection.isStream && !connection.closesAfterSending {
      if connection.outgoing.count + chunk.count > limits.streamBacklogBytes {
        close(fd)
        continue
      }
      enqueue(chunk, fd)
      flush(fd)
    }
  }

  /// Ends every stream, sends what can be sent, closes every connection.
  mutating func closeAll() {
    for (fd, connection) in connections {
      if connection.isStream { enqueue(HTTPResponse.lastChunk, fd) }
      flush(fd)
    }
    for fd in Array(connections.keys) { close(fd) }
  }

  /// Deadlines: closes lingering connections that are done, resumes held ones the server's
  /// total lets go on, ticks each machine. Returns the nanoseconds until the next deadline
  /// (at most one second).
  mutating func tick(now: UInt64) -> UInt64 {
    var timeout: UInt64 = 1_000_000_000
    for fd in Array(connections.keys) {
      guard connections[fd] != nil else { continue }
      if let linger = connections[fd]!.lingersUntil {
        if now >= linger { close(fd) } else { timeout = min(timeout, linger - now) }
        continue
      }
      let resumed = connections[fd]!.machine.resume(now: now, serverFull: serverFull())
      if !resumed.isEmpty { execute(resumed, fd) }
      guard connections[fd] != nil else { continue }
      let actions = connections[fd]!.machine.tick(now: now)
      if !actions.isEmpty { execute(actions, fd) }
      if let deadline = connections[fd]?.machine.deadline {
        timeout = min(timeout, deadline > now ? deadline - now : 0)
      }
    }
    return timeout
  }

  /// What to poll each connection for: input while its machine wants it, output while bytes
  /// wait. The descriptors come back in the order of the `pollfd`s.
  func pollSet() -> (fds: [pollfd], order: [Int32]) {
    var fds: [pollfd] = []
    var order: [Int32] = []
    let full = serverFull()
    for (fd, connection) in connections {
      var wanted: Int16 = 0
      if connection.machine.wantsInput(serverFull: full) { wanted |= Int16(POLLIN) }
      if !connection.outgoing.isEmpty { wanted |= Int16(POLLOUT) }
      fds.append(pollfd(fd: fd, events: wanted, revents: 0))
      order.append(fd)
    }
    return (fds, order)
  }

  /// Accepts up to 64 waiting connections; past `HTTPLimits.connections` each is answered
  /// 503 and closed.
  mutating func accept(from listener: Int32) {
    var accepted = 0
    while accepted < 64, let fd = UnsafeSocket.accept(listener) {
      accepted += 1
      if connections.count >= limits.connections {
        let refusal = HTTPResponse.error(503, "too many connections (at most \(limits.connections))")
        _ = UnsafeSocket.send(fd, refusal.serialized(keepAlive: false)[...])
        UnsafeSocket.close(fd)
        continue
      }
      let id = nextID
      nextID += 1
      let machine = HTTPConnectionMachine(
        limits: limits, now: core.configuration.now(), hostPolicy: core.hostPolicy)
      connections[fd] = Connection(id: id, machine: machine)
      descriptorOf[id] = fd
      core.openConnections.add(1, ordering: .relaxed)
    }
  }

  /// Writes and reads each connection `poll` marked ready (`events` are its `revents`);
  /// bytes read while lingering are discarded.
  mutating func transfer(_ fd: Int32, events: Int16, buffer: inout [UInt8], now: UInt64) {
    guard events != 0, connections[fd] != nil else { return }
    if events & Int16(POLLOUT) != 0 { flush(fd) }
    guard connections[fd] != nil, events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
    switch UnsafeSocket.read(fd, into: &buffer) {
    case .wouldBlock: break
    case .closed: close(fd)
    case .bytes(let count):
      guard connections[fd] != nil, connections[fd]!.lingersUntil == nil else { return }
      let full = serverFull()
      let actions = connections[fd]!.machine.received(buffer[..<count], now: now, serverFull: full)
      if !actions.isEmpty { execute(actions, fd) }
    }
  }
}
