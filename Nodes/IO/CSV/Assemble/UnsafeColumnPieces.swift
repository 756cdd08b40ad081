// The shared buffers of the parallel CSV reader's workers (`UnsafeCSVBlockReader`).
//
// Invariants: the pieces are shared by the threads of one parallel loop
// (`TableParallelism.forEach`); each column's slot is taken by the one thread that claimed that
// column, and the owner drops the whole only after the loop returned (which orders the takes
// before the release).

import FlowRuntime

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
