import FlowTestSupport
import Testing
@testable import FlowNodes

/// `filter`'s selection vector (`UnsafeSelection.trueRows`, through `RowVector.appendTrueRows`)
/// against the rows kept one at a time: random flags, with and without validity, every
/// selectivity, offsets, and rows appended after others.
@Suite struct TrueRowsTests {
  @Test(arguments: 0..<80) func trueRowsAreTheRowsKeptOneAtATime(seed: UInt64) {
    var random = SeededRandom(seed: seed &+ 300)
    let count = Int.random(in: 0..<600, using: &random)
    let keepOneIn = [1, 2, 10, 1_000][Int(seed) % 4]
    let keep = (0..<count).map { _ in Int.random(in: 0..<keepOneIn, using: &random) == 0 }
    let valid: [Bool]? = seed % 3 == 0 ? (0..<count).map { _ in Int.random(in: 0..<5, using: &random) > 0 } : nil
    let offset = Int.random(in: 0..<100_000, using: &random)
    let expected = (0..<count).filter { keep[$0] && (valid?[$0] ?? true) }.map { Int32(offset + $0) }
    let rows = UnsafeSelection.trueRows(keep, valid: valid, offset: offset, count: count)
    #expect(rows == expected, "seed \(seed)")
    // A selective filter's rows do not keep the allocation for every row.
    if rows.count < count / 2 { #expect(rows.capacity < count) }
    var appended: [Int32] = seed % 2 == 0 ? [] : [-5, 9]
    let before = appended
    RowVector.bool(keep, valid: valid).appendTrueRows(to: &appended, offset: offset, count: count)
    #expect(appended == before + expected)
  }
}
