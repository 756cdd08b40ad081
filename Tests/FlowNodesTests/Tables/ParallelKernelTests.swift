import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The table kernels that use several threads (`Table.gathering` by column; `groupBy`'s
/// aggregates one per thread; its key codes' fast paths) give the serial result bit for bit —
/// rows, order, sums — at 1, 2 and 7 workers, on random tables with nulls large enough to be
/// split. (Results never depend on the worker count, so tests running at once may share the
/// knob.)
@Suite(.serialized) struct ParallelKernelTests {
  static func randomTable(_ random: inout SeededRandom, rows: Int) -> Table {
    func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    var flags: [String?] = [], names: [String?] = [], amounts: [Double?] = [], counts: [Int64?] = [],
      marks: [Bool?] = []
    for _ in 0..<rows {
      flags.append(pick(0..<30) == 0 ? nil : ["A", "N", "R", ""][pick(0..<4)])
      names.append(pick(0..<30) == 0 ? nil : "name\(pick(0..<50))")
      amounts.append(pick(0..<20) == 0 ? nil : Double(pick(-1_000_000..<1_000_000)) / 7)
      counts.append(pick(0..<20) == 0 ? nil : Int64(pick(-50..<50)))
      marks.append(pick(0..<10) == 0 ? nil : pick(0..<2) == 0)
    }
    return try! Table([
      ("flag", .strings(flags)), ("name", .strings(names)), ("amount", .numbers(amounts)),
      ("count", .integers(counts)), ("mark", .bools(marks))
    ])
  }

  @Test func gatheringAndGroupByEqualTheirSerialFormAtOneTwoAndSevenWorkers() throws {
    var random = SeededRandom(seed: 7)
    for round in 0..<6 {
      let table = Self.randomTable(&random, rows: 20_000 + round * 3_001)
      var rows: [Int32] = []
      for _ in 0..<30_000 {
        rows.append(
          Int.random(in: 0..<10, using: &random) == 0 ? -1 : Int32.random(in: 0..<Int32(table.rowCount), using: &random)
        )
      }
      let params: JSONObject = [
        "by": round % 2 == 0 ? ["flag", "mark"] : ["name", "flag"],
        "aggregate": [
          "n": "count()", "total": "sum(amount)", "mean": "mean(amount)", "ints": "sum(count)", "low": "min(name)",
          "high": "max(amount)", "first": "first(flag)", "kinds": "countDistinct(name)"
        ]
      ]
      let serialGather = table.gathering(rows, workers: 1)
      let serialGroups = try KindHarness.table("groupBy", params, [.table(table)], workers: 1)
      #expect(serialGroups.rowCount > 1)
      for workers in [2, 7] {
        let gathered = table.gathering(rows, workers: workers)
        let groups = try KindHarness.table("groupBy", params, [.table(table)], workers: workers)
        #expect(gathered == serialGather, "round \(round), \(workers) workers: gathering")
        #expect(groups == serialGroups, "round \(round), \(workers) workers: groupBy")
      }
      // The serial form is also the plain reference: the first appearance order of the keys.
      let keys = params["by"]!.arrayValue!.compactMap(\.stringValue)
      var seen = Set<[Value]>(), order: [[Value]] = []
      for row in 0..<table.rowCount {
        let key = keys.map { table.column(named: $0)![row] }
        if seen.insert(key).inserted { order.append(key) }
      }
      #expect((0..<serialGroups.rowCount).map { row in keys.map { serialGroups.column(named: $0)![row] } } == order)
    }
  }

  @Test func oneByteKeysGroupAsLongerKeysDo() throws {
    // The 257-entry path (strings of at most one byte) against the hashed path: the same codes.
    let flags: [String?] = ["b", "a", nil, "", "b", "c", "a", nil, ""]
    let short = Column.strings(flags)
    let long = Column.strings(flags.map { $0.map { "long-\($0)" } })
    #expect(ColumnCodes.codes(of: short).codes == ColumnCodes.codes(of: long).codes)
    #expect(ColumnCodes.codes(of: short).cardinality == 5)
  }
}
