import Foundation
import FlowRuntime

/// Shows a pass's progress on one terminal line of stderr (`flow run` when stderr is a
/// terminal): nodes done of total, the node running, rows and bytes read. Nothing appears for
/// passes shorter than `threshold`, and nothing at all when stderr is not a terminal.
final class ProgressReporter: Sendable {
  let progress: PassProgress
  let nodeIDs: [String]
  let isTerminal: Bool
  let threshold: Duration
  let write: @Sendable (String) -> Void
  private let state = Locked<State>(State())

  struct State {
    var started: ContinuousClock.Instant?
    var running = false
    var wroteSomething = false
  }

  /// Signalled by `stop()` to end the drawing loop; the loop signals `finished` when it ends.
  private let stopSignal = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  init(
    progress: PassProgress, nodeIDs: [String], isTerminal: Bool, threshold: Duration = .seconds(1),
    write: @escaping @Sendable (String) -> Void
  ) {
    self.progress = progress
    self.nodeIDs = nodeIDs
    self.isTerminal = isTerminal
    self.threshold = threshold
    self.write = write
  }

  /// Starts watching (a line redrawn every 100 ms on a thread of its own, never one of
  /// Dispatch's global workers, which the run's parallel loops need); does nothing when stderr
  /// is not a terminal.
  func start() {
    guard isTerminal else { return }
    state.withLock {
      $0.started = ContinuousClock().now
      $0.running = true
    }
    Thread.detachNewThread { [self] in
      while stopSignal.wait(timeout: .now() + .milliseconds(100)) == .timedOut { tick(now: ContinuousClock().now) }
      finished.signal()
    }
  }

  /// Draws the line if the pass has run longer than the threshold.
  func tick(now: ContinuousClock.Instant) {
    guard isTerminal else { return }
    let shouldWrite = state.withLock { state -> Bool in
      guard let started = state.started, now - started >= threshold else { return false }
      state.wroteSomething = true
      return true
    }
    if shouldWrite { write("\r\u{1B}[K" + line()) }
  }

  /// The progress line: `[3/12] running read · 120,000 rows · 14.2 MB read`.
  func line() -> String {
    let done = progress.nodesDone.load(ordering: .relaxed), total = progress.nodesTotal.load(ordering: .relaxed)
    let running = progress.runningNode.load(ordering: .relaxed)
    var parts = ["[\(done)/\(max(total, done))]"]
    if running >= 0 && running < nodeIDs.count { parts.append("running \(nodeIDs[running].controlEscaped)") }
    let rows = progress.rowsRead.load(ordering: .relaxed), bytes = progress.bytesRead.load(ordering: .relaxed)
    if rows > 0 { parts.append("\(RunResult.grouped(rows)) rows") }
    if bytes > 0 { parts.append(String(format: "%.1f MB read", Double(bytes) / 1e6)) }
    return parts.joined(separator: " · ")
  }

  /// Stops the drawing loop and clears the line if one was drawn.
  func stop() {
    let running = state.withLock { state in
      defer { state.running = false }
      return state.running
    }
    guard running else { return }
    stopSignal.signal()
    finished.wait()
    if state.withLock({ $0.wroteSomething }) { write("\r\u{1B}[K") }
  }
}
