import FlowTestSupport
import Testing
@testable import FlowRuntime

/// `Column.gathering` (word-at-a-time validity, run-copying strings) against a cell-by-cell
/// reference over random columns and random row lists (increasing, shuffled, with -1).
@Suite struct ColumnGatherTests {
  static func randomStrings(_ count: Int, _ random: inout SeededRandom) -> Column {
    let words = ["", "a", "Zürich", "NA", "x,y", "long text cell", "é"]
    return .strings(
      (0..<count).map { _ in
        Int.random(in: 0..<5, using: &random) == 0 ? nil : words[Int.random(in: 0..<words.count, using: &random)]
      })
  }

  @Test func gatherMatchesTheCellByCellReference() {
    var random = SeededRandom(seed: 9)
    for round in 0..<200 {
      let count = Int.random(in: 0..<300, using: &random)
      let nullEvery = [0, 2, 7, 64][round % 4]
      let integers = Column.integers(
        (0..<count).map { row in
          nullEvery > 0 && Int.random(in: 0..<nullEvery, using: &random) == 0 ? nil : Int64(row) * 3 - 50
        })
      let strings = Self.randomStrings(count, &random)
      var rows: [Int32]
      switch round % 3 {
      case 0: rows = (0..<count).filter { _ in Bool.random(using: &random) }.map { Int32($0) }
      case 1:
        rows = (0..<Int.random(in: 0..<200, using: &random)).map { _ in
          count == 0 ? -1 : Int32(Int.random(in: -1..<count, using: &random))
        }
      default: rows = (0..<count).map { Int32($0) }.shuffled(using: &random)
      }
      for column in [integers, strings] {
        let gathered = column.gathering(rows)
        let expected = rows.map { $0 < 0 ? Value.null : column[Int($0)] }
        #expect(gathered.values == expected, "round \(round)")
        #expect(gathered.nullCount == expected.filter(\.isNull).count, "round \(round)")
        #expect(gathered.count == rows.count)
      }
    }
  }

  @Test func gatherOfAdjacentRowsCopiesTheirBytes() {
    let column = Column.strings(["ab", "c", nil, "def", "g"])
    let gathered = column.gathering([0, 1, 3, 4, 1])
    #expect(gathered.values == [.string("ab"), .string("c"), .string("def"), .string("g"), .string("c")])
    guard case .string(let strings) = gathered.storage else { Issue.record("not a string column"); return }
    #expect(strings.bytes == Array("abcdefgc".utf8))
    #expect(strings.offsets == [0, 2, 3, 6, 7, 8])
  }

  /// A table's gather checks the rows once for all its columns: every kind of column, with
  /// and without nulls, flat and dictionary strings, by rows in range and by rows with -1,
  /// selections that keep most rows and runs of consecutive rows in any order.
  @Test func tableGatherMatchesTheCellByCellReference() throws {
    var random = SeededRandom(seed: 21)
    for round in 0..<120 {
      let count = Int.random(in: 0..<200, using: &random)
      let nulls = round % 2 == 1
      func cell<T>(_ value: T) -> T? { nulls && Int.random(in: 0..<4, using: &random) == 0 ? nil : value }
      let strings = Self.randomStrings(count, &random)
      guard case .string(let flat) = strings.storage else { return }
      let columns: [Column] = [
        .integers((0..<count).map { cell(Int64($0) - 7) }),
        .numbers((0..<count).map { cell(Double($0) / 3) }),
        .bools((0..<count).map { cell($0 % 3 == 0) }),
        strings,
        Column(.string(flat.dictionaryEncoded()!), validity: strings.validity)
      ]
      let table = try Table(names: ["i", "n", "b", "s", "d"], columns: columns, rowCount: count)
      var rows: [Int32]
      switch round % 4 {
      case 2 where count > 0:
        rows = (0..<Int.random(in: 0..<80, using: &random)).map { _ in Int32(Int.random(in: -1..<count, using: &random))
        }
      case 1:  // a filter that keeps most rows: long runs of consecutive rows
        rows = (0..<count).filter { _ in Int.random(in: 0..<64, using: &random) > 0 }.map { Int32($0) }
      case 3 where count > 0:  // runs of consecutive rows anywhere, in any order, overlapping
        rows = []
        for _ in 0..<Int.random(in: 0..<12, using: &random) {
          let start = Int.random(in: 0..<count, using: &random)
          rows += (start..<min(count, start + Int.random(in: 1...20, using: &random))).map { Int32($0) }
        }
      default: rows = (0..<count).filter { _ in Int.random(in: 0..<3, using: &random) > 0 }.map { Int32($0) }
      }
      for workers in [1, 3] {
        let gathered = table.gathering(rows, workers: workers)
        #expect(gathered.rowCount == rows.count)
        for (index, column) in columns.enumerated() {
          let expected = rows.map { $0 < 0 ? Value.null : column[Int($0)] }
          #expect(gathered.columns[index].values == expected, "round \(round), column \(index)")
          #expect(gathered.columns[index].nullCount == expected.filter(\.isNull).count)
        }
        #expect(gathered.columns[4].isDictionaryEncoded)
      }
    }
  }
}
