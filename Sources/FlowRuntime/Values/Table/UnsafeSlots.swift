// The result slots of a parallel loop: `TableParallelism.map`'s, and the parallel CSV reader's
// (`UnsafeCSVBlockReader`: chunks, counts, the file buffer's workers).
//
// Invariants: a slots object is shared by the threads of one parallel loop
// (`TableParallelism.forEach`); slot `i` is written only by the one thread that claimed item `i` (each item is claimed
// once), and the owner reads the slots only after that call returned, which orders every
// write before the reads. No slot is read while it may be written, so no lock is needed.

/// One result slot per item of a parallel loop (see the invariants above).
///
/// Why `@unchecked Sendable` is sound here: the threads never touch the same slot, and the
/// owner reads only after the loop's join; a `Value` written on one thread is read on another
/// only across that join.
package final class UnsafeSlots<Value>: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<Value?>
  package let count: Int

  package init(_ count: Int) {
    self.count = count
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil, count: count)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  /// Slot `index` (`nil` while empty); set only by the thread that claimed item `index`.
  package subscript(index: Int) -> Value? {
    get { storage[index] }
    set {
      precondition(index >= 0 && index < count, "slot \(index) of \(count)")
      storage[index] = newValue
    }
  }

  /// Every slot, or `nil` if one is empty.
  package func all() -> [Value]? {
    var values: [Value] = []
    values.reserveCapacity(count)
    for index in 0..<count {
      guard let value = storage[index] else { return nil }
      values.append(value)
    }
    return values
  }

  /// Every slot, `value` for an empty one.
  package func values(default value: Value) -> [Value] { (0..<count).map { storage[$0] ?? value } }
}
