import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every open connection of `HTTPServerLoop`, by descriptor, with what the executor keeps
/// beside each `HTTPConnectionMachine`: the bytes waiting to be sent, whether it closes once
/// they are sent, when its linger ends, whether it streams. The machine decides; the table
/// only carries out its actions (`execute`), sends (`flush`) and closes (`close`). The loop's
/// phases (accept, read, write, deliver, tick, stop) are in `HTTPConnectionTable+Phases.swift`.
///
/// Connections are updated in place (`connections[fd]!`), so a response is never copied
/// again once queued. Every queued and sent byte is counted in `core.queuedBytes`, the
/// server's total. Each descriptor the table accepts it closes once.
struct HTTPConnectionTable {
  struct Connection {
    let id: UInt64
    var machine: HTTPConnectionMachine
    var outgoing = HTTPOutgoingBytes()
    var closesAfterSending = false
    var lingersUntil: UInt64?
    var isStream = false
  }

  let core: HTTPServerCore
  let handler: HTTPServer.Handler
  let limits: HTTPLimits
  var connections: [Int32: Connection] = [:]
  var descriptorOf: [UInt64: Int32] = [:]
  var nextID: UInt64 = 1

  init(core: HTTPServerCore, handler: @escaping HTTPServer.Handler) {
    self.core = core
    self.handler = handler
    limits = core.configuration.limits
  }

  /// Whether the server's queued bytes are past `HTTPLimits.queuedBytes`.
  func serverFull() -> Bool { core.queuedBytes.load(ordering: .relaxed) >= limits.queuedBytes }

  /// Queues `bytes` on `fd`'s connection, counted in the server's total.
  mutating func enqueue(_ bytes: [UInt8], _ fd: Int32) {
    guard connections[fd] != nil else { return }
    connections[fd]!.outgoing.append(bytes)
    core.queuedBytes.add(bytes.count, ordering: .relaxed)
  }

  /// Carries out the machine's actions for `fd`, in order, then sends what it can.
  mutating func execute(_ actions: [HTTPConnectionMachine.Action], _ fd: Int32) {
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
        let id = connections[fd]!.id, handler = self.handler, core = self.core
        core.handlerQueues[Int(id % UInt64(core.handlerQueues.count))].async {
          let response = handler(request)
          core.shared.withLock { $0.completions.append((id, response)) }
          UnsafeSocket.poke(core.wakePipe.write)
        }
      }
    }
    flush(fd)
  }

  /// Sends what `fd` has queued until the socket would block; half-closes and starts the
  /// linger after a connection's last bytes; reports what was sent to the machine.
  mutating func flush(_ fd: Int32) {
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

  /// Forgets `fd`'s connection, takes its bytes off the server's counts, closes it.
  mutating func close(_ fd: Int32) {
    guard let connection = connections.removeValue(forKey: fd) else { return }
    descriptorOf[connection.id] = nil
    core.queuedBytes.subtract(connection.outgoing.count, ordering: .relaxed)
    if connection.isStream { core.streamCount.subtract(1, ordering: .relaxed) }
    core.openConnections.subtract(1, ordering: .relaxed)
    UnsafeSocket.close(fd)
  }
}
