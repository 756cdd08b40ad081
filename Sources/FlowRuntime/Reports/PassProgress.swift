import Synchronization

/// Live counters of a running pass, for a host that shows progress (`flow run` on a terminal).
///
/// The evaluator updates `nodesDone` and `runningNode`; file nodes add to `rowsRead`. Reading
/// them from another thread is safe (atomics) and costs the pass nothing when nobody reads.
public final class PassProgress: Sendable {
  /// Nodes finished in the current pass.
  public let nodesDone = Atomic<Int>(0)
  /// Nodes the current pass will run at most.
  public let nodesTotal = Atomic<Int>(0)
  /// The dense index of the node that started last (-1 before the first).
  public let runningNode = Atomic<Int>(-1)
  /// Rows (or lines) read by file nodes so far.
  public let rowsRead = Atomic<Int>(0)
  /// Bytes read by file nodes so far.
  public let bytesRead = Atomic<Int>(0)

  /// Set by a host that wants the pass to stop (a signal, a timeout): file nodes stop between
  /// chunks and leave no temporary file; the host passes `shouldStop` to stop between nodes.
  public let stopRequest = Atomic<Bool>(false)

  public init() {}

  /// Asks file nodes to stop mid-file (see `stopRequest`).
  public func requestStop() { stopRequest.store(true, ordering: .relaxed) }

  /// Whether a host asked to stop.
  public var isStopRequested: Bool { stopRequest.load(ordering: .relaxed) }

  /// Adds `rows` read rows and `bytes` read bytes.
  public func addRead(rows: Int, bytes: Int) {
    rowsRead.add(rows, ordering: .relaxed)
    bytesRead.add(bytes, ordering: .relaxed)
  }
}
