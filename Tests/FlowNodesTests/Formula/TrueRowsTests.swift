import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// `filter`'s selection vector (`UnsafeSelection.trueRows`, through `RowVector.appendTrueRows`)
/// against the rows kept one at a time: random flags, with and without validity, every
/// selectivity, offsets, and rows appended after others; and a column compared with a literal
/// tested straight into the selection (`RowProgram.comparedRows`) against the program's `bool`
/// column, for every operator over integers, numbers (NaN included) and dictionary strings.
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

  @Test(arguments: 0..<60) func comparedRowsAreTheRowsTheProgramKeeps(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 4_100)
    let count = Int.random(in: 0..<500, using: &random)
    let op = ["<", "<=", "==", "!=", ">=", ">"][Int(seed) % 6]
    let column: Column
    let literal: String
    switch seed % 4 {
    case 0:
      column = Column(.integer((0..<count).map { _ in Int64.random(in: -5...5, using: &random) }))
      literal = Bool.random(using: &random) ? "2" : "1.5"
    case 1:
      column = Column(
        .number(
          (0..<count).map { _ in
            Int.random(in: 0..<9, using: &random) == 0 ? .nan : Double.random(in: -3...3, using: &random).rounded()
          }))
      literal = Bool.random(using: &random) ? "1" : "0.5"
    default:
      let entries = StringColumn(["1998-09-01", "1998-09-02", "1998-09-03", "", "é"])
      let codes = (0..<count).map { _ in UInt32.random(in: 0..<5, using: &random) }
      column = Column(.string(StringColumn(dictionary: entries, codes: codes)))
      literal = "\"1998-09-02\""
    }
    let table = try Table(names: ["x"], columns: [column], rowCount: count)
    let program = try RowFormula(parsing: "x \(op) \(literal)").compile(for: RowSchema(table))
    let rows = try #require(program.comparedRows(over: table.columns, rowCount: count), "seed \(seed)")
    var expected: [Int32] = []
    try program.evaluate(over: table.columns, rowCount: count).appendTrueRows(to: &expected, offset: 0, count: count)
    #expect(rows == expected, "seed \(seed): x \(op) \(literal)")
    #expect(try program.trueRows(over: table.columns, rowCount: count, workers: 1) == expected)
  }
}
