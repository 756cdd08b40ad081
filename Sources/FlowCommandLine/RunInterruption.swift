import Dispatch
import FlowGraph
import FlowRuntime
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends a `flow run` early and cleanly (Reference.md, "The `flow` command line"): SIGINT, SIGTERM or SIGHUP, or `--timeout`
/// passing, asks the pass to stop — between nodes, and file nodes between chunks, removing
/// their temporary files — and the run exits 130, 143 or 129 (1 for the timeout) printing
/// nothing more. A node that does not stop within `grace` (a long computation), or a second
/// signal, ends the process at once, after removing the temporary files of writes in flight.
struct RunInterruption {
  /// Why the run was stopped.
  enum Cause: Sendable, Equatable {
    case signal(Int32)
    case timeout(String)
  }

  /// What the handlers share with the run (the handlers run on a dispatch queue).
  final class Shared: Sendable {
    let progress: PassProgress
    let cause = Locked<Cause?>(nil)
    /// The node that ran when the run was stopped.
    let runningWhenStopped = Locked("")
    let finished = Atomic<Bool>(false)
    let grace: Duration

    init(progress: PassProgress, grace: Duration) {
      self.progress = progress
      self.grace = grace
    }

    func trip(_ reason: Cause, running: String, forcedExit: @escaping @Sendable (Cause) -> Never) {
      let first = cause.withLock { current -> Bool in
        guard current == nil else { return false }
        current = reason
        return true
      }
      if first { runningWhenStopped.withLock { $0 = running } }
      guard first else {
        if case .signal = reason, !finished.load(ordering: .acquiring) { forcedExit(reason) }  // a second signal
        return
      }
      progress.requestStop()
      let nanoseconds = grace.components.seconds * 1_000_000_000 + grace.components.attoseconds / 1_000_000_000
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
        if !finished.load(ordering: .acquiring) { forcedExit(reason) }
      }
    }
  }

  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  let shared: Shared
  private let sources: [any DispatchSourceProtocol]

  /// Installs the signal handlers and the timer; `cancel()` removes them.
  init(
    progress: PassProgress, timeout: (limit: Duration, text: String)?, grace: Duration = .seconds(3),
    describeRunning: @escaping @Sendable () -> String
  ) {
    let shared = Shared(progress: progress, grace: grace)
    let forcedExit: @Sendable (Cause) -> Never = { cause in
      TemporaryFiles.removeAll()
      let message = Self.message(cause, running: shared.runningWhenStopped.withLock { $0 }).controlEscaped
      FileHandle.standardError.write(Data((message + "\n").utf8))
      _exit(Self.status(cause).rawValue)
    }
    var sources: [any DispatchSourceProtocol] = Self.signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { shared.trip(.signal(number), running: describeRunning(), forcedExit: forcedExit) }
      source.resume()
      return source
    }
    if let timeout {
      let timer = DispatchSource.makeTimerSource(queue: .global())
      let components = timeout.limit.components
      timer.schedule(
        deadline: .now()
          + .nanoseconds(Int(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)))
      timer.setEventHandler { shared.trip(.timeout(timeout.text), running: describeRunning(), forcedExit: forcedExit) }
      timer.resume()
      sources.append(timer)
    }
    self.shared = shared
    self.sources = sources
  }

  /// Why the run was stopped, if it was.
  var cause: Cause? { shared.cause.withLock { $0 } }

  /// Whether the pass should stop (for `evaluate(shouldStop:)`).
  var shouldStop: @Sendable () -> Bool { { [shared] in shared.progress.isStopRequested } }

  /// Removes the handlers and restores the signals' default actions.
  func cancel() {
    shared.finished.store(true, ordering: .releasing)
    for source in sources { source.cancel() }
    for number in Self.signals { signal(number, SIG_DFL) }
  }

  /// The failure that ends a stopped run: its message (naming the node that ran when it was
  /// stopped) and exit status.
  func failure() -> CommandFailure? {
    guard let cause else { return nil }
    // No `TemporaryFiles.removeAll()` here: the stopped pass has returned, so each of its writes
    // has removed its own file, and in a host (or a test process) other writes may be in flight.
    return CommandFailure(Self.status(cause), [Self.message(cause, running: shared.runningWhenStopped.withLock { $0 })])
  }

  static func status(_ cause: Cause) -> ExitStatus {
    switch cause {
    case .timeout: .nodeFailed
    case .signal(SIGHUP): .hangUp
    case .signal(SIGINT): .interrupted
    case .signal: .terminated
    }
  }

  static func message(_ cause: Cause, running: String) -> String {
    let during = running.isEmpty ? "" : " while '\(running)' ran"
    switch cause {
    case .timeout(let limit):
      return "flow: the run passed its time limit (--timeout \(limit))\(during); nothing more was run"
    case .signal(let number):
      let name = number == SIGINT ? "SIGINT" : number == SIGHUP ? "SIGHUP" : "SIGTERM"
      return "flow: stopped by \(name)\(during); nothing more was run, no temporary file left"
    }
  }

  /// Parses a `--timeout` value: a number of seconds, or a number with `ms`, `s`, `m` or `h`.
  static func duration(_ text: String) -> Duration? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
    var number = Substring(text)
    var scale = 1.0
    for (unit, factor) in units where text.hasSuffix(unit) {
      number = text.dropLast(unit.count)
      scale = factor
      break
    }
    guard let value = Double(number), value.isFinite, value > 0, value * scale <= 1e9 else { return nil }
    return .nanoseconds(Int64((value * scale * 1e9).rounded(.up)))
  }
}
