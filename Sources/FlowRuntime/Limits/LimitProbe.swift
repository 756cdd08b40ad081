import Synchronization

/// A test seam: records, for the task that binds it (and its child tasks), the largest table
/// and string that the limit checks *let through* (`RunLimits.checkRows`,
/// `RunLimits.checkStringBytes`) and how many they refused. A test shows that a hostile
/// document stopped before its big allocation — nothing larger than the limit was ever
/// granted — without measuring the process's memory.
///
/// ```swift
/// let probe = LimitProbe()
/// LimitProbe.$current.withValue(probe) { _ = evaluator.evaluate() }
/// #expect(probe.largestStringBytesGranted <= 1_000)
/// ```
package final class LimitProbe: Sendable {
  /// The probe of the current task, if a test bound one (`nil`: the checks record nothing).
  @TaskLocal package static var current: LimitProbe?

  private let rows = Atomic<Int>(0)
  private let stringBytes = Atomic<Int>(0)
  private let refusals = Atomic<Int>(0)

  package init() {}

  /// The largest row count a check granted.
  package var largestRowsGranted: Int { rows.load(ordering: .relaxed) }
  /// The largest string size, in bytes, a check granted.
  package var largestStringBytesGranted: Int { stringBytes.load(ordering: .relaxed) }
  /// How many requests the checks refused.
  package var refusedCount: Int { refusals.load(ordering: .relaxed) }

  func granted(rows count: Int) { Self.raise(rows, to: count) }
  func granted(stringBytes count: Int) { Self.raise(stringBytes, to: count) }
  func refused() { refusals.add(1, ordering: .relaxed) }

  /// Raises `maximum` to `value` if it is larger.
  private static func raise(_ maximum: borrowing Atomic<Int>, to value: Int) {
    var current = maximum.load(ordering: .relaxed)
    while value > current {
      let (exchanged, original) = maximum.compareExchange(expected: current, desired: value, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }
}
