import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The executor of `HTTPServer`: one thread, `poll(2)` over the listener, the wake-up pipe and
/// every connection; it feeds each connection's `HTTPConnectionMachine` and carries out its
/// actions. It owns every descriptor it opens and closes each once.
///
/// A connection is polled for input only while it reads a request or streams (so a client
/// that pipelines faster than it is answered is slowed by TCP, not buffered without bound), and
/// for output while bytes wait. After its last response a connection half-closes and lingers
/// (reading and discarding) for up to 2 s, so a response is not lost to a reset when the peer
/// had sent more than was read.
struct HTTPServerLoop: Sendable {
  struct Connection {
    let id: UInt64
    var machine: HTTPConnectionMachine
    var outgoing: [UInt8] = []
    var sent = 0
    var closesAfterSending = false
    var lingersUntil: UInt64?
    var isStream = false
  }

  let core: HTTPServerCore
  let listener: Int32
  let handler: HTTPServer.Handler

  init(core: HTTPServerCore, listener: Int32, handler: @escaping HTTPServer.Handler) {
    self.core = core
    self.listener = listener
    self.handler = handler
  }

  mutating func run() {
    var connections: [Int32: Connection] = [:]
    var descriptorOf: [UInt64: Int32] = [:]
    var nextID: UInt64 = 1
    var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
    let limits = core.configuration.limits

    func execute(_ actions: [HTTPConnectionMachine.Action], _ fd: Int32) {
      for action in actions {
        guard var connection = connections[fd] else { return }
        switch action {
        case .send(let bytes):
          connection.outgoing.append(contentsOf: bytes)
          if connection.machine.state == .streaming && !connection.isStream {
            connection.isStream = true
            core.streamCount.add(1, ordering: .relaxed)
          }
          connections[fd] = connection
        case .closeAfterSending:
          connection.closesAfterSending = true
          connections[fd] = connection
        case .dispatch(let request):
          if !core.allows(host: request.header("Host")) {
            let refusal = HTTPResponse.error(403, "this server answers only requests for localhost, 127.0.0.1 or [::1] with its port")
            let more = connection.machine.responded(refusal, now: core.configuration.now())
            connections[fd] = connection
            execute(more, fd)
          } else {
            let id = connection.id, handler = self.handler, core = self.core
            DispatchQueue.global().async {
              let response = handler(request)
              core.shared.withLock { $0.completions.append((id, response)) }
              UnsafeSocket.poke(core.wakePipe.write)
            }
          }
        }
      }
      flush(fd)
    }

    func flush(_ fd: Int32) {
      guard var connection = connections[fd] else { return }
      while connection.sent < connection.outgoing.count {
        guard let count = UnsafeSocket.send(fd, connection.outgoing[connection.sent...]) else {
          close(fd)
          return
        }
        if count == 0 { break }
        connection.sent += count
      }
      if connection.sent == connection.outgoing.count {
        connection.outgoing.removeAll(keepingCapacity: connection.outgoing.count < 65_536)
        connection.sent = 0
        if connection.closesAfterSending && connection.lingersUntil == nil {
          _ = shutdown(fd, Int32(SHUT_WR))
          connection.lingersUntil = core.configuration.now() &+ 2_000_000_000
        }
      } else if connection.sent > 1 << 20 {
        connection.outgoing.removeFirst(connection.sent)
        connection.sent = 0
      }
      connections[fd] = connection
    }

    func close(_ fd: Int32) {
      guard let connection = connections.removeValue(forKey: fd) else { return }
      descriptorOf[connection.id] = nil
      if connection.isStream { core.streamCount.subtract(1, ordering: .relaxed) }
      core.openConnections.subtract(1, ordering: .relaxed)
      UnsafeSocket.close(fd)
    }

    while true {
      let (completions, events, stopping) = core.shared.withLock { shared in
        defer {
          shared.completions.removeAll()
          shared.events.removeAll()
        }
        return (shared.completions, shared.events, shared.stopping)
      }
      let now = core.configuration.now()
      for (id, response) in completions {
        guard let fd = descriptorOf[id], var connection = connections[fd] else { continue }
        let actions = connection.machine.responded(response, now: now)
        connections[fd] = connection
        execute(actions, fd)
      }
      if !events.isEmpty {
        let chunk = events.flatMap { HTTPResponse.chunk($0) }
        for (fd, connection) in connections where connection.isStream && !connection.closesAfterSending {
          if connection.outgoing.count - connection.sent + chunk.count > limits.streamBacklogBytes {
            close(fd)  // a client too slow to keep up with the stream
            continue
          }
          connections[fd]!.outgoing.append(contentsOf: chunk)
          flush(fd)
        }
      }
      if stopping {
        for (fd, connection) in connections {
          if connection.isStream { connections[fd]!.outgoing.append(contentsOf: HTTPResponse.lastChunk) }
          flush(fd)
        }
        for fd in Array(connections.keys) { close(fd) }
        UnsafeSocket.close(listener)
        core.finished.signal()
        return
      }
      // Deadlines: requests too slow, lingering connections done.
      var timeout: UInt64 = 1_000_000_000
      for fd in Array(connections.keys) {
        guard var connection = connections[fd] else { continue }
        if let linger = connection.lingersUntil {
          if now >= linger { close(fd) } else { timeout = min(timeout, linger - now) }
          continue
        }
        let actions = connection.machine.tick(now: now)
        connections[fd] = connection
        if !actions.isEmpty { execute(actions, fd) }
        if let deadline = connections[fd]?.machine.deadline { timeout = min(timeout, deadline > now ? deadline - now : 0) }
      }
      var fds = [pollfd(fd: core.wakePipe.read, events: Int16(POLLIN), revents: 0),
                 pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      var order: [Int32] = []
      for (fd, connection) in connections {
        var wanted: Int16 = 0
        switch connection.machine.state {
        case .reading, .streaming, .closing: wanted |= Int16(POLLIN)
        case .handling: break
        }
        if connection.sent < connection.outgoing.count { wanted |= Int16(POLLOUT) }
        fds.append(pollfd(fd: fd, events: wanted, revents: 0))
        order.append(fd)
      }
      _ = UnsafeSocket.poll(&fds, timeoutMilliseconds: Int32(min(1_000, timeout / 1_000_000 + 1)))
      if fds[0].revents != 0 { UnsafeSocket.drain(core.wakePipe.read) }
      if fds[1].revents & Int16(POLLIN) != 0 {
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
          connections[fd] = Connection(id: id, machine: HTTPConnectionMachine(limits: limits, now: core.configuration.now()))
          descriptorOf[id] = fd
          core.openConnections.add(1, ordering: .relaxed)
        }
      }
      let readTime = core.configuration.now()
      for (slot, fd) in order.enumerated() {
        let events = fds[slot + 2].revents
        guard events != 0, connections[fd] != nil else { continue }
        if events & Int16(POLLOUT) != 0 { flush(fd) }
        guard connections[fd] != nil else { continue }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          switch UnsafeSocket.read(fd, into: &buffer) {
          case .wouldBlock: break
          case .closed: close(fd)
          case .bytes(let count):
            guard var connection = connections[fd] else { continue }
            if connection.lingersUntil != nil { continue }  // discarded
            let actions = connection.machine.received(buffer[..<count], now: readTime)
            connections[fd] = connection
            if !actions.isEmpty { execute(actions, fd) }
          }
        }
      }
    }
  }
}
