// Invariants: this file tests `UnsafeColumn` through its safe interface only (append, reserve,
// subscript, copy, free); it takes no pointer itself, so it relies on nothing beyond the
// column's own invariants (`UnsafeGraphStorage.swift`).
@testable import FlowRuntime
import FlowTestSupport
import Testing

/// `UnsafeColumn` across the size where a column moves from the ordinary allocator into a
/// mapping of its own (`ColumnMemory`): growing by appends, growing by reserving, copying and
/// freeing keep every element, on both sides of the threshold.
@Suite struct UnsafeColumnTests {
  @Test(arguments: [
    1_000, ColumnMemory.hugeThreshold / 8 - 1, ColumnMemory.hugeThreshold / 8, 3 * ColumnMemory.hugeThreshold / 8 + 5
  ])
  func elementsSurviveGrowthCopiesAndFrees(count: Int) {
    var random = SeededRandom(seed: UInt64(count))
    var expected: [UInt64] = []
    expected.reserveCapacity(count)
    var column = UnsafeColumn<UInt64>()
    for _ in 0..<count {
      let value = random.next()
      expected.append(value)
      column.append(value)
    }
    #expect(column.count == count)
    var mismatches = 0
    for index in 0..<count where column[index] != expected[index] { mismatches += 1 }
    #expect(mismatches == 0)
    // A copy (exact capacity: maybe the other side of the threshold), written independently.
    let copy = column.copy()
    copy[count - 1] = 42
    #expect(column[count - 1] == expected[count - 1] && copy[count - 1] == 42)
    for index in 0..<(count - 1) where copy[index] != expected[index] { mismatches += 1 }
    #expect(mismatches == 0)
    // Reserving past the threshold from a small column, then filling by `append(repeating:)`.
    var filled = UnsafeColumn<Int32>()
    filled.append(7)
    filled.reserve(count)
    filled.append(repeating: -1, count: count - 1)
    #expect(filled.count == count && filled[0] == 7 && filled[count - 1] == -1)
    column.deallocate()
    copy.deallocate()
    filled.deallocate()
  }
}
