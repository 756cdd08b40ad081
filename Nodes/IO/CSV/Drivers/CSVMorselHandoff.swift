import Dispatch
import FlowRuntime

/// The morsels of a `CSVMorsels.read` handed from the thread that reads and parses the file
/// (the producer) to the caller's thread, which runs the chain's nodes on them (the consumer):
/// while the consumer works on morsel k the producer parses morsel k + 1, so both cores stay
/// busy. At most `capacity` parsed morsels wait (memory: that many morsels more than a serial
/// read).
///
/// The queue is a pure state (`State`, whose transitions say whether to block) driven by two
/// semaphores: `space` counts free places (the producer waits on it), `ready` counts items
/// (the consumer waits on it). `stop` (the consumer gives up: its node failed) makes the
/// producer's next `put` return `false`; `finished` is signalled once the producer has
/// returned, so the caller never leaves while the producer still reads its file.
final class CSVMorselHandoff: Sendable {
  enum Item: Sendable {
    case morsel(Table)
    /// The producer is done: the rows read.
    case end(Int)
    case failure(any Error)
  }

  struct State {
    var items: [Item] = []
    var head = 0
    var stopped = false

    /// Appends `item` unless the consumer stopped; whether it was appended.
    mutating func put(_ item: Item) -> Bool {
      guard !stopped else { return false }
      items.append(item)
      return true
    }

    /// The oldest item (the consumer waited on `ready`, so there is one).
    mutating func take() -> Item {
      precondition(head < items.count, "Internal inconsistency: take with no item")
      let item = items[head]
      head += 1
      if head == items.count { items.removeAll(keepingCapacity: true); head = 0 }
      return item
    }
  }

  private let state = Locked(State())
  /// Starts at 0 and is signalled `capacity` times: libdispatch traps when a semaphore is
  /// freed below its initial value (as `space` is when the consumer stopped early).
  private let space = DispatchSemaphore(value: 0)
  private let ready = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  init(capacity: Int) { for _ in 0..<Swift.max(1, capacity) { space.signal() } }

  /// Producer: hands on a morsel, waiting for room; `false` if the consumer stopped.
  func put(_ morsel: Table) -> Bool {
    space.wait()
    guard state.withLock({ $0.put(.morsel(morsel)) }) else { return false }
    ready.signal()
    return true
  }

  /// Producer: the last item (the end or a failure), then marks the producer finished.
  func finish(_ item: Item) {
    // The end needs no room: the consumer takes it after the morsels before it.
    if state.withLock({ $0.put(item) }) { ready.signal() }
    finished.signal()
  }

  /// Consumer: the next morsel, or `nil` at the end (the rows read into `rows`).
  ///
  /// - Throws: the producer's failure.
  func take(rows: inout Int) throws -> Table? {
    ready.wait()
    switch state.withLock({ $0.take() }) {
    case .morsel(let table):
      space.signal()
      return table
    case .end(let count):
      rows = count
      return nil
    case .failure(let error):
      throw error
    }
  }

  /// Consumer: stops the producer (its next `put` returns `false`) and waits until it has returned.
  func stopAndWait() {
    state.withLock { $0.stopped = true }
    space.signal()  // a producer waiting for room wakes, and sees the stop
    finished.wait()
  }
}
