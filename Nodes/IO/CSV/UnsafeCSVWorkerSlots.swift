// The shared buffers of the parallel CSV reader's workers (`UnsafeCSVBlockReader`).
//
// Invariants: each type below is shared by the threads of one `concurrentPerform` call; each
// slot (a result, an accumulator, a column's pieces) is written by the one thread that claimed
// it, and the owner reads them only after that call returned (which orders the writes before
// the reads); a shared byte buffer is only read.

import Dispatch
import FlowRuntime
import Synchronization

extension UnsafeCSVBlockReader {
  /// `body(k)` for each `k` in `0..<count`, on up to `threads` threads that claim the next `k`
  /// in turn (each `k` runs once, on one thread).
  static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let threads = Swift.max(1, Swift.min(threads, count))
    if threads == 1 {
      for index in 0..<count { body(index) }
      return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        if index >= count { return }
        body(index)
      }
    }
  }
}

/// The column accumulators of a pass, merged on several threads: the thread merging column
/// position `p` writes only `buffer[slots[p]]` (the slots are distinct), and the owner reads
/// them after `concurrentPerform` returned.
struct UnsafeAccumulators: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<CSVColumnAccumulator>
  init(_ buffer: UnsafeMutableBufferPointer<CSVColumnAccumulator>) { self.buffer = buffer }
}

/// The chunks' pieces of each column: the thread merging column `p` takes (and so releases)
/// slot `p` only.
final class UnsafeColumnPieces: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<[CSVPiece]>

  init(_ pieces: [[CSVPiece]]) {
    storage = .allocate(capacity: pieces.count)
    _ = storage.initialize(from: pieces)
  }

  deinit {
    storage.deinitialize()
    storage.deallocate()
  }

  /// Column `position`'s pieces, leaving its slot empty.
  func take(_ position: Int) -> [CSVPiece] {
    precondition(position >= 0 && position < storage.count, "column \(position) of \(storage.count)")
    var taken: [CSVPiece] = []
    swap(&taken, &storage[position])
    return taken
  }
}

/// A buffer read by several workers at once (each reads; none writes).
struct UnsafeSendableBuffer: @unchecked Sendable {
  let buffer: UnsafeBufferPointer<UInt8>
  init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }
}
