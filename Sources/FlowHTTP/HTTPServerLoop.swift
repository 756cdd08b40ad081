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
/// A connection is polled for input only while its machine wants input: while it reads a
/// request with room in its queue of response bytes, or streams (so a client that pipelines
/// faster than it reads is slowed by TCP, not buffered: back-pressure), and for output while
/// bytes wait. Every queued and sent byte is counted in `core.queuedBytes`, the server's total,
/// which holds back connections with a queue while it is past `HTTPLimits.queuedBytes`.
/// Connections are updated in place (`connections[fd]!`), so a response is never copied again
/// once queued. After its last response a connection half-closes and lingers (reading and
/// discarding) for up to 2 s, so a response is not lost to a reset when the peer had sent more
/// than was read.
struct HTTPServerLoop: Sendable {
  struct Connection {
    let id: UInt64
    var machine: HTTPConnectionMachine
    var outgoing = HTTPOutgoingBytes()
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

    func serverFull() -> Bool { core.queuedBytes.load(ordering: .relaxed) >= limits.queuedBytes }

    func enqueue(_ bytes: [UInt8], _ fd: Int32) {
      guard connections[fd] != nil else { return }
      connections[fd]!.outgoing.append(bytes)
      core.queuedBytes.add(bytes.count, ordering: .relaxed)
    }

    func execute(_ actions: [HTTPConnectionMachine.Action], _ fd: Int32) {
      for action in actions {
        guard connections[fd] != nil else { return }
        switch action {
        case .send(let bytes):
          enqueue(bytes, fd)
          if connections[fd]!.machine.state == .streaming && !connections[fd]!.isStream {
            connections[fd]!.isStream = true
            core.streamCount.add(1, ordering: .relaxed)
          }
        case .closeAfterSending:
          connections[fd]!.closesAfterSending = true
        case .dispatch(let request):
          if !core.allows(host: request.header("Host")) {
            let refusal = HTTPResponse.error(
              403, "this server answers only requests for localhost, 127.0.0.1 or [::1] with its port")
            let full = serverFull()
            let more = connections[fd]!.machine.responded(refusal, now: core.configuration.now(), serverFull: full)
            execute(more, fd)
          } else {
            let id = connections[fd]!.id, handler = self.handler, core = self.core
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
      guard connections[fd] != nil else { return }
      var total = 0
      while let next = connections[fd]!.outgoing.next {
        guard let count = UnsafeSocket.send(fd, next) else {
          close(fd)
          return
        }
        if count == 0 { break }
        connections[fd]!.outgoing.consume(count)
        core.queuedBytes.subtract(count, ordering: .relaxed)
        total += count
      }
      if connections[fd]!.outgoing.isEmpty, connections[fd]!.closesAfterSending, connections[fd]!.lingersUntil == nil {
        _ = shutdown(fd, Int32(SHUT_WR))
        connections[fd]!.lingersUntil = core.configuration.now() &+ 2_000_000_000
      }
      if total > 0 {
        let full = serverFull()
        let actions = connections[fd]!.machine.sent(total, now: core.configuration.now(), serverFull: full)
        if !actions.isEmpty { execute(actions, fd) }
      }
    }

    func close(_ fd: Int32) {
      guard let connection = connections.removeValue(forKey: fd) else { return }
      descriptorOf[connection.id] = nil
      core.queuedBytes.subtract(connection.outgoing.count, ordering: .relaxed)
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
        guard let fd = descriptorOf[id], connections[fd] != nil else { continue }
        let full = serverFull()
        let actions = connections[fd]!.machine.responded(response, now: now, serverFull: full)
        execute(actions, fd)
      }
      if !events.isEmpty {
        let chunk = events.flatMap { HTTPResponse.chunk($0) }
        for (fd, connection) in connections where connection.isStream && !connection.closesAfterSending {
          if connection.outgoing.count + chunk.count > limits.streamBacklogBytes {
            close(fd)  // a client too slow to keep up with the stream
            continue
          }
          enqueue(chunk, fd)
          flush(fd)
        }
      }
      if stopping {
        for (fd, connection) in connections {
          if connection.isStream { enqueue(HTTPResponse.lastChunk, fd) }
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
        guard connections[fd] != nil else { continue }
        if let linger = connections[fd]!.lingersUntil {
          if now >= linger { close(fd) } else { timeout = min(timeout, linger - now) }
          continue
        }
        // A connection held back by the server's total goes on once the total has shrunk.
        let resumed = connections[fd]!.machine.resume(now: now, serverFull: serverFull())
        if !resumed.isEmpty { execute(resumed, fd) }
        guard connections[fd] != nil else { continue }
        let actions = connections[fd]!.machine.tick(now: now)
        if !actions.isEmpty { execute(actions, fd) }
        if let deadline = connections[fd]?.machine.deadline {
          timeout = min(timeout, deadline > now ? deadline - now : 0)
        }
      }
      var fds = [
        pollfd(fd: core.wakePipe.read, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      ]
      var order: [Int32] = []
      let full = serverFull()
      for (fd, connection) in connections {
        var wanted: Int16 = 0
        if connection.machine.wantsInput(serverFull: full) { wanted |= Int16(POLLIN) }
        if !connection.outgoing.isEmpty { wanted |= Int16(POLLOUT) }
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
          connections[fd] = Connection(
            id: id, machine: HTTPConnectionMachine(limits: limits, now: core.configuration.now()))
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
            // lingering: discarded
            guard connections[fd] != nil, connections[fd]!.lingersUntil == nil else { continue }
            let full = serverFull()
            let actions = connections[fd]!.machine.received(buffer[..<count], now: readTime, serverFull: full)
            if !actions.isEmpty { execute(actions, fd) }
          }
        }
      }
    }
  }
}
