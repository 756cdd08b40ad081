import Dispatch
import FlowGraph
import FlowRuntime
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flow run FILE --live [--follow] [--ticks N] [--save FILE]`: keeps evaluating as live nodes
/// emit, and stops when every source finished, after N emissions, or on SIGINT/SIGTERM (the
/// running pass finishes first); then prints as `run` does (or, with `--follow`, has printed
/// each pass as it completed: `LiveFollow`), and `--save` writes the document with its live
/// state.
enum LiveRun {
  /// What a live run leaves to print and save.
  struct Outcome: Sendable {
    var evaluator: GraphEvaluator
    var document: FlowDocument?
  }

  /// Parses `--ticks`.
  static func ticks(_ arguments: ParsedArguments) throws(CommandFailure) -> Int? {
    guard let text = arguments.value("--ticks") else { return nil }
    guard let count = Int(text), count >= 0 else {
      throw CommandFailure(.usage, ["flow: --ticks expects a whole number ≥ 0, got '\(text)'"])
    }
    return count
  }

  /// Runs the engine to the end of the live run (blocking the calling thread, which is the
  /// process's main thread in `flow`).
  static func run(
    _ document: FlowDocument, shown: [String], registry: NodeKindRegistry, ticks: Int?,
    timeout: (limit: Duration, text: String)? = nil,
    saves: Bool, follow: LiveFollow? = nil, context: CommandContext
  ) throws(CommandFailure) -> Outcome {
    var options = EngineOptions(demandDriven: true)
    // Following takes one emission at a time (`LiveFollow.run`): none before it asks.
    options.emissionLimit = follow == nil ? ticks : 0
    let engine: FlowEngine
    do {
      // Observed from the first pass: no emission is processed before the printed nodes are necessary.
      engine = try FlowEngine(document: document, registry: registry, options: options, observing: shown)
    } catch {
      throw CommandFailure(.invalidDocument, ["flow: \(error)"])
    }
    let handles = engine.initialObservations
    let stopped = Locked(false)
    let signals = installSignalHandlers {
      stopped.withLock { $0 = true }
      engine.stopEmissions()
    }
    let timedOut = Locked(false)
    let timer = timeout.map { timeout in
      let timer = DispatchSource.makeTimerSource(queue: .global())
      let components = timeout.limit.components
      timer.schedule(
        deadline: .now()
          + .nanoseconds(Int(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)))
      timer.setEventHandler {
        timedOut.withLock { $0 = true }
        stopped.withLock { $0 = true }
        engine.stopEmissions()
      }
      timer.resume()
      return timer
    }
    let result = Locked<Outcome?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let progress =
        context.stderrIsTerminal ? Task { await showProgress(engine, write: context.writeDiagnostic) } : nil
      if let follow {
        await follow.run(engine, ticks: ticks, stopped: { stopped.withLock { $0 } })
      } else {
        await engine.evaluate()
        await engine.waitForLiveSources()
      }
      progress?.cancel()
      let evaluator = await engine.evaluatorSnapshot()
      let saved = saves ? await engine.documentWithLiveState() : nil
      result.withLock { $0 = Outcome(evaluator: evaluator, document: saved) }
      done.signal()
    }
    done.wait()
    timer?.cancel()
    for signal in signals { signal.cancel() }
    for number in RunInterruption.signals { signal(number, SIG_DFL) }
    for handle in handles { handle.cancel() }
    engine.shutDown()
    if let timeout, timedOut.withLock({ $0 }) {
      throw CommandFailure(.nodeFailed, [RunInterruption.message(.timeout(timeout.text), running: "")])
    }
    guard let outcome = result.withLock({ $0 }) else {
      preconditionFailure("Internal inconsistency: the live run left no outcome")
    }
    return outcome
  }

  /// SIGINT, SIGTERM and SIGHUP stop taking emissions; the default actions are ignored meanwhile.
  static func installSignalHandlers(_ stop: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    RunInterruption.signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: stop)
      source.resume()
      return source
    }
  }

  /// One line on stderr, rewritten twice a second: emissions and emissions per second.
  static func showProgress(_ engine: FlowEngine, write: @Sendable (String) -> Void) async {
    let clock = ContinuousClock()
    let start = clock.now
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(500))
      let count = engine.processedEmissionCount
      let seconds =
        Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
      let rate = seconds > 0 ? Int(Double(count) / seconds) : 0
      write("\r\(count) emissions, \(rate) passes/s   ")
    }
    write("\r\u{1B}[K")
  }

  /// Writes `document` to `path` atomically (a temporary file renamed over the target).
  static func save(_ document: FlowDocument, to path: String) throws(CommandFailure) {
    do {
      try document.write(to: path)
    } catch {
      throw CommandFailure(.invalidDocument, ["flow: --save: cannot write '\(path)': \(error.reason)"])
    }
  }
}
