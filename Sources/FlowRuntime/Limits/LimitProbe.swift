import Synchronization

/// A test seam: records, for the task that binds it (and its child tasks), the largest table
/// and string that the limit checks *let through* (`RunLimits.checkRows`,
/// `RunLimits.checkStringBytes`), how many they refused, and how often (and for how much at
/// most) the memory limit was checked while building (`RunLimits.checkMemory(adding:for:)`). A test shows that a hostile
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
  private let memoryCheckCount = Atomic<Int>(0)
  private let memoryRequest = Atomic<Int>(0)

  package init() {}

  /// The largest row count a check granted.
  package var largestRowsGranted: Int { rows.load(ordering: .relaxed) }
  /// The largest string size, in bytes, a check granted.
  package var largestStringBytesGranted: Int { stringBytes.load(ordering: .relaxed) }
  /// How many requests the checks refused.
  package var refusedCount: Int { refusals.load(ordering: .relaxed) }
  /// How many times `RunLimits.checkMemory(adding:for:)` ran (a kernel that checks once per
  /// block shows here as at least one check per block).
  package var memoryChecks: Int { memoryCheckCount.load(ordering: .relaxed) }
  /// The most bytes one `RunLimits.checkMemory(adding:for:)` asked about.
  package var largestMemoryRequest: Int { memoryRequest.load(ordering: .relaxed) }

  func granted(rows count: Int) { Self.raise(rows, to: count) }
  func granted(stringBytes count: Int) { Self.raise(stringBytes, to: count) }
  func refused() { refusals.add(1, ordering: .relaxed) }
  func checkedMemory(adding bytes: Int) {
    memoryCheckCount.add(1, ordering: .relaxed)
    Self.raise(memoryRequest, to: bytes)
  }

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
