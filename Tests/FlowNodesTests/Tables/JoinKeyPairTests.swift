import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `join` on keys named differently on the two sides (`on: ["k = rk"]`): on random tables with
/// null and duplicate keys, every `how` gives the rows of the same join after renaming the
/// right key to the left's name (the reference), with the right key kept as its own column —
/// and for `right`/`full`, a right-only row's key in that column, not in the left one.
@Suite struct JoinKeyPairTests {
  @Test(arguments: 0..<6)
  func aPairJoinIsTheJoinOfTheRenamedKey(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 4_000)
    let keyType: ColumnType = seed % 2 == 0 ? .integer : .string
    let left = MorselKernelPropertyTests.table(
      &random, rows: 40 + Int.random(in: 0..<60, using: &random), keyType: keyType)
    let right = MorselKernelPropertyTests.table(
      &random, rows: 40 + Int.random(in: 0..<60, using: &random), keyType: keyType,
      prefix: "r")
    var renamed = right.columnNames
    renamed[0] = "rk"
    let pairRight = try right.selecting(Array(right.columnNames.indices), as: renamed)
    let entries = seed % 3 == 0 ? ["k = rk", "s"] : ["k=rk"]
    let referenceKeys = seed % 3 == 0 ? ["k", "s"] : ["k"]
    let morsels = TableMorsels(workers: TableParallelism.defaultWorkers)
    for kind in JoinKind.allCases {
      let pair = try JoinNode.Evaluator.joined(
        left, pairRight, keys: entries, kind: kind, limits: RunLimits(), morsels: morsels)
      let reference = try JoinNode.Evaluator.joined(
        left, right, keys: referenceKeys, kind: kind, limits: RunLimits(), morsels: morsels)
      if kind.keepsLeftColumnsOnly {
        #expect(pair == reference, "\(kind), seed \(seed)")
        continue
      }
      let rk = try #require(pair.columnIndex(named: "rk"))
      let kept = pair.columnNames.indices.filter { $0 != rk }
      #expect(pair.columnNames[rk] == "rk" && rk == left.columnCount, "the right key follows the left columns")
      #expect(pair.rowCount == reference.rowCount, "\(kind), seed \(seed)")
      guard pair.rowCount == reference.rowCount else { continue }
      let withoutRK = try pair.selecting(kept)
      #expect(withoutRK.columnNames == reference.columnNames, "\(kind)")
      for (position, name) in reference.columnNames.enumerated() {
        let expected = reference.column(at: position), got = withoutRK.column(at: position),
          rightKey = pair.column(at: rk)
        for row in 0..<reference.rowCount {
          // `right`/`full`: the reference merges the keys; the pair join has the left key (null
          // for a right-only row) and the right key apart.
          let value = name == "k" && kind.keepsUnmatchedRight && got[row] == .null ? rightKey[row] : got[row]
          #expect(Self.same(value, expected[row]), "\(kind), seed \(seed), row \(row), column \(name)")
        }
      }
    }
  }

  /// Equal values, NaN equal to NaN (the random number columns hold NaN).
  static func same(_ a: Value, _ b: Value) -> Bool {
    if case .number(let x) = a, case .number(let y) = b, x.isNaN, y.isNaN { return true }
    return a == b
  }

  @Test func anEntryNamingAColumnOfBothSidesKeepsItsMeaning() throws {
    let left = try Table([("a=b", .integers([1, 2])), ("x", .integers([10, 20]))])
    let right = try Table([("a=b", .integers([2, 3])), ("y", .integers([200, 300]))])
    let output = try KindHarness.table("join", ["on": ["a=b"]], [.table(left), .table(right)])
    #expect(output.jsonRows == [["a=b": 2, "x": 20, "y": 200]] as JSONValue)
  }

  @Test func pairsJoinAndKeepBothKeys() throws {
    let orders = try Table([("o_orderkey", .integers([1, 2, 3])), ("o_custkey", .integers([7, 8, 7]))])
    let lines = try Table([("l_orderkey", .integers([3, 1, 1, 9])), ("l_qty", .integers([5, 6, 7, 8]))])
    let output = try KindHarness.table("join", ["on": ["l_orderkey = o_orderkey"]], [.table(lines), .table(orders)])
    #expect(
      output.jsonRows == [
        ["l_orderkey": 3, "l_qty": 5, "o_orderkey": 3, "o_custkey": 7],
        ["l_orderkey": 1, "l_qty": 6, "o_orderkey": 1, "o_custkey": 7],
        ["l_orderkey": 1, "l_qty": 7, "o_orderkey": 1, "o_custkey": 7]
      ] as JSONValue)
  }

  @Test func aMissingPairColumnIsNamedWithItsSide() throws {
    let left = try Table([("a", .integers([1]))])
    let right = try Table([("b", .integers([1]))])
    for (entry, missing, side) in [("a = c", "c", "right"), ("z = b", "z", "left")] {
      do {
        _ = try KindHarness.table("join", ["on": .array([.string(entry)])], [.table(left), .table(right)])
        Issue.record("\(entry) joined")
      } catch {
        let message = "\(error)"
        #expect(message.contains("'\(missing)'") && message.contains(side), "\(message)")
      }
    }
  }
}
