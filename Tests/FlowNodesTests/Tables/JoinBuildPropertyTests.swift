import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// `join`'s build side on several threads (`PartitionedCodeTable`): the codes of the serial
/// build (first appearance) in any number of partitions, and every `how` joined with the
/// parallel build equal to the serial join at 1, 2 and 7 workers — the same rows in the same
/// order — on random tables with null, duplicate and missing keys; and a left side of at most
/// half the right's rows (built instead of the right) equal to the nested-loop reference.
@Suite struct JoinBuildPropertyTests {
  @Test func partitionedCodesAreTheSerialCodes() {
    var random = SeededRandom(seed: 21)
    for round in 0..<12 {
      let rows = Int.random(in: 0..<3_000, using: &random)
      let distinct = [1, 5, 300, 5_000][round % 4]
      let keys: [Int64?] = (0..<rows).map { _ in
        Int.random(in: 0..<10, using: &random) == 0
          ? nil : Int64.random(in: 0..<Int64(distinct), using: &random) &* 7_919 &- 40_000
      }
      var serial = IntegerCodeTable(capacity: rows)
      let expected = keys.map { $0.map { serial.insert($0) } ?? -1 }
      for partitions in [2, 3, 8, 64] {
        let morsels = TableMorsels(rows: Int.random(in: 1...500, using: &random), workers: partitions)
        let table = PartitionedCodeTable(rows: rows, partitions: partitions, morsels: morsels) { keys[$0] }
        #expect(
          keys.map { $0.map { table.code(of: $0) } ?? -1 } == expected, "round \(round), \(partitions) partitions")
        #expect(table.count == serial.count)
        #expect(table.code(of: 1) == serial.code(of: 1) && table.code(of: -40_001) == -1)
      }
    }
  }

  @Test(arguments: 0..<6)
  func everyHowWithTheParallelBuildIsTheSerialJoin(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 1_000)
    let types: [ColumnType] = [.integer, .string, .number, .bool, .integer, .string]
    let keyType = types[Int(seed)]
    // Right sides of at least 4 morsels (integer and number keys: the build is partitioned),
    // many duplicate keys.
    let left = MorselKernelPropertyTests.table(
      &random, rows: 100 + Int.random(in: 0..<150, using: &random), keyType: keyType)
    let right = MorselKernelPropertyTests.table(
      &random, rows: 300 + Int.random(in: 0..<200, using: &random), keyType: keyType,
      prefix: "r")
    let keys = seed % 3 == 0 ? ["k", "s"] : ["k"]
    for kind in JoinKind.allCases {
      let serial = try JoinNode.Evaluator.joined(
        left, right, keys: keys, kind: kind, limits: RunLimits(), morsels: .serial)
      for workers in [1, 2, 7] {
        let morsels = TableMorsels(rows: [37, 60][Int.random(in: 0..<2, using: &random)], workers: workers)
        let parallel = try JoinNode.Evaluator.joined(
          left, right, keys: keys, kind: kind, limits: RunLimits(), morsels: morsels)
        #expect(parallel == serial, "\(kind), seed \(seed), \(workers) workers")
      }
    }
  }

  /// A left side of at most half the right side's rows, with 64-bit keys (integers and
  /// numbers, also meeting each other), is the side built: every `how` still gives the
  /// nested-loop reference's rows in its order, at 1, 2 and 7 workers, with keys missing on
  /// either side.
  @Test(arguments: 0..<60)
  func aSmallLeftSideBuiltInsteadMatchesTheReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 2_000)
    var right = try CombineTables.table(
      [
        ("s", .string), ("k", CombineTables.type(of: "k", clashes: false, &random)),
        ("rx", .number), ("rb", .bool)
      ], rows: Int.random(in: 60...240, using: &random), &random)
    // Drop the right rows of one key value, so some left keys have no match.
    let key = right.column(at: 1), dropped = right.row(0)[1]
    right = right.gathering((0..<right.rowCount).filter { key[$0] != dropped }.map { Int32($0) }, workers: 1)
    let left = try CombineTables.table(
      [
        ("k", CombineTables.type(of: "k", clashes: false, &random)), ("s", .string),
        ("x", .number), ("b", .bool)
      ],
      rows: Int.random(in: 0...(right.rowCount / 2), using: &random), &random)
    let keys = seed % 4 == 0 ? ["k", "s"] : ["k"]
    for kind in JoinKind.allCases {
      let expected = JoinKindPropertyTests.reference(kind.rawValue, left: left, right: right, keys: keys)
      for workers in [1, 2, 7] {
        let morsels = TableMorsels(rows: [16, 50][Int.random(in: 0..<2, using: &random)], workers: workers)
        let joined = try JoinNode.Evaluator.joined(
          left, right, keys: keys, kind: kind, limits: RunLimits(), morsels: morsels)
        #expect(KindHarness.rows(joined) == expected, "\(kind), seed \(seed), \(workers) workers")
      }
    }
  }

  /// `semi` and `anti` on one 64-bit key take their kept rows straight from the probe
  /// (`JoinCodes.keptRows`, the right side built serially or in partitions): the nested-loop
  /// reference's rows, null keys included, at 1, 2 and 7 workers.
  @Test(arguments: 0..<40)
  func semiAndAntiKeptRowsMatchTheReference(seed: UInt64) throws {
    var random = SeededRandom(seed: seed &+ 3_000)
    let left = try CombineTables.table(
      [
        ("k", CombineTables.type(of: "k", clashes: false, &random)), ("s", .string),
        ("x", .number)
      ], rows: Int.random(in: 101...400, using: &random), &random)
    let right = try CombineTables.table(
      [("k", CombineTables.type(of: "k", clashes: false, &random)), ("rb", .bool)],
      rows: Int.random(in: 0...200, using: &random), &random)
    for kind in [JoinKind.semi, .anti] {
      let expected = JoinKindPropertyTests.reference(kind.rawValue, left: left, right: right, keys: ["k"])
      #expect(
        JoinCodes.keptRows(
          left: left.column(at: 0), right: right.column(at: 0), keep: kind == .semi,
          morsels: TableMorsels(rows: 64, workers: 2)) != nil)
      for workers in [1, 2, 7] {
        let morsels = TableMorsels(rows: [16, 64][Int.random(in: 0..<2, using: &random)], workers: workers)
        let joined = try JoinNode.Evaluator.joined(
          left, right, keys: ["k"], kind: kind, limits: RunLimits(), morsels: morsels)
        #expect(KindHarness.rows(joined) == expected, "\(kind), seed \(seed), \(workers) workers")
      }
    }
  }
}
