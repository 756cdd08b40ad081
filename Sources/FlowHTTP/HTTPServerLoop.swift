#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The executor of `HTTPServer`: one thread, `poll(2)` over the listener, the wake-up pipe and
/// every connection. Each turn runs the phases of its `HTTPConnectionTable`: deliver the
/// handlers' responses, broadcast published events, tick deadlines, poll, accept, then write
/// and read what is ready. Each connection's `HTTPConnectionMachine` decides; the table
/// carries out its actions.
///
/// A connection is polled for input only while its machine wants input: while it reads a
/// request with room in its queue of response bytes, or streams (so a client that pipelines
/// faster than it reads is slowed by TCP, not buffered: back-pressure), and for output while
/// bytes wait. The server's total of queued bytes (`core.queuedBytes`) holds back connections
/// with a queue while it is past `HTTPLimits.queuedBytes`. After its last response a
/// connection half-closes and lingers (reading and discarding) for up to 2 s, so a response
/// is not lost to a reset when the peer had sent more than was read.
struct HTTPServerLoop: Sendable {
  let core: HTTPServerCore
  let listener: Int32
  let handler: HTTPServer.Handler

  init(core: HTTPServerCore, listener: Int32, handler: @escaping HTTPServer.Handler) {
    self.core = core
    self.listener = listener
    self.handler = handler
  }

  func run() {
    var table = HTTPConnectionTable(core: core, handler: handler)
    var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
    while true {
      let (completions, events, stopping) = core.shared.withLock { shared in
        defer {
          shared.completions.removeAll()
          shared.events.removeAll()
        }
        return (shared.completions, shared.events, shared.stopping)
      }
      let now = core.configuration.now()
      table.deliver(completions, now: now)
      table.broadcast(events)
      if stopping {
        table.closeAll()
        UnsafeSocket.close(listener)
        core.finished.signal()
        return
      }
      let timeout = table.tick(now: now)
      let (connectionFDs, order) = table.pollSet()
      var fds =
        [
          pollfd(fd: core.wakePipe.read, events: Int16(POLLIN), revents: 0),
          pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        ] + connectionFDs
      _ = UnsafeSocket.poll(&fds, timeoutMilliseconds: Int32(min(1_000, timeout / 1_000_000 + 1)))
      if fds[0].revents != 0 { UnsafeSocket.drain(core.wakePipe.read) }
      if fds[1].revents & Int16(POLLIN) != 0 { table.accept(from: listener) }
      let readTime = core.configuration.now()
      for (slot, fd) in order.enumerated() {
        table.transfer(fd, events: fds[slot + 2].revents, buffer: &buffer, now: readTime)
      }
    }
  }
}
