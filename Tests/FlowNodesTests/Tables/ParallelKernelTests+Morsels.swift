import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `filter` and `derive` evaluate large tables by morsels on several threads: the same rows,
/// in the same order, and the same columns as the whole-table (serial) evaluation, at 1, 2
/// and 7 workers; a failing row in a late morsel gives the serial error.
extension ParallelKernelTests {
  /// The whole-table evaluation of `source` over `table` (the serial form of the kernels).
  static func serialColumn(_ source: String, over table: Table) throws -> Column {
    let program = try RowFormula(parsing: source).compile(for: RowSchema(table))
    return try program.evaluate(over: table).column(as: program.resultType, count: table.rowCount)
  }

  static let rows = 2 * RowProgram.morselRows + 1_234

  @Test func filterEqualsItsSerialFormAtOneTwoAndSevenWorkers() throws {
    var random = SeededRandom(seed: 11)
    let table = Self.randomTable(&random, rows: Self.rows)
    for formula in [
      "amount > 100 and flag != \"N\"", "name <= \"name25\"", "isNull(count) or mark", "flag == name or flag < name",
      "count * 2 >= amount", "not (amount / count < 3)"
    ] {
      let keep = try Self.serialColumn(formula, over: table)
      guard case .bool(let flags) = keep.storage else { Issue.record("\(formula): not bool"); continue }
      let expected = (0..<table.rowCount).filter { flags[$0] && keep.validity.isValid($0) }.map { Int32($0) }
      #expect(expected.count > 1_000 && expected.count < table.rowCount, "\(formula) keeps some rows")
      let serial = table.gathering(expected, workers: 1)
      for workers in [1, 2, 7] {
        let filtered = try KindHarness.table("filter", ["where": .string(formula)], [.table(table)], workers: workers)
        #expect(filtered == serial, "\(formula) at \(workers) workers")
      }
    }
  }

  @Test func deriveEqualsItsSerialFormAtOneTwoAndSevenWorkers() throws {
    var random = SeededRandom(seed: 12)
    let table = Self.randomTable(&random, rows: Self.rows)
    let entries: [(String, String)] = [
      ("price", "amount * (1 - count) * (1 + 0.25)"), ("ints", "count * 3 - count"), ("ratio", "amount / count"),
      ("pick", "if(mark, name, flag)"), ("early", "flag < name"), ("missing", "isNull(name)"),
      ("shout", "upper(name)"), ("mixed", "if(mark, count, amount)"), ("none", "null")
    ]
    var expected = table
    for (name, formula) in entries {
      expected = try expected.settingColumn(name, to: Self.serialColumn(formula, over: expected))
    }
    let params: JSONObject = [
      "columns": .object(JSONObject(entries.map { JSONMember(key: $0.0, value: .string($0.1)) }))
    ]
    for workers in [1, 2, 7] {
      let derived = try KindHarness.table("derive", params, [.table(table)], workers: workers)
      #expect(derived.columnNames == expected.columnNames, "\(workers) workers")
      for name in expected.columnNames {
        #expect(derived.column(named: name) == expected.column(named: name), "column \(name) at \(workers) workers")
      }
    }
  }

  @Test func aFailingRowInALateMorselGivesTheSerialError() throws {
    var counts = [Int64](repeating: 1, count: Self.rows)
    counts[Self.rows - 10] = .max
    var dates = [String](repeating: "2024-01-31", count: Self.rows)
    dates[RowProgram.morselRows + 5] = "not a date"
    let table = try Table([("n", Column(.integer(counts))), ("d", .strings(dates))])
    for (formula, fragment) in [
      ("n + 1", "integer overflow in '+' at row \(Self.rows - 9)"),
      ("-n * n", "integer overflow in '*' at row \(Self.rows - 9)"), ("year(d) + n", "row \(RowProgram.morselRows + 6)")
    ] {
      let serial = KindHarness.failure {
        try KindHarness.table("derive", ["columns": ["x": .string(formula)]], [.table(table)], workers: 1)
      }
      #expect(serial?.contains(fragment) == true, "\(formula): \(serial ?? "no error")")
      for workers in [2, 7] {
        let failure = KindHarness.failure {
          try KindHarness.table("derive", ["columns": ["x": .string(formula)]], [.table(table)], workers: workers)
        }
        #expect(failure == serial, "\(formula) at \(workers) workers")
        let filtered = KindHarness.failure {
          try KindHarness.table("filter", ["where": .string("\(formula) > 0")], [.table(table)], workers: workers)
        }
        #expect(
          filtered?.contains(fragment) == true, "filter \(formula) at \(workers) workers: \(filtered ?? "no error")")
      }
    }
  }
}
