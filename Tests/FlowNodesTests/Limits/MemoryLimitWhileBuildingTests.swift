import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// The memory limit holds *while* a node builds its output: the string kernels check it before
/// they allocate (`concat`, `format`) or once per block (`replace`), so a node never overshoots
/// by more than one block, and the failure names the node and the column that crossed it.
@Suite struct MemoryLimitWhileBuildingTests {
  /// 24 rows of `x` (10 bytes) and `count` doubling columns `c1: concat(x, x)`, `c2: concat(c1, c1)`, …
  static func doublingDerive(_ count: Int) -> (table: Table, params: JSONObject) {
    var members: [JSONMember] = []
    for index in 1...count {
      let previous = index == 1 ? "x" : "c\(index - 1)"
      members.append(JSONMember(key: "c\(index)", value: .string("concat(\(previous), \(previous))")))
    }
    let table = try! Table([("x", .strings(Array(repeating: "0123456789", count: 24)))])
    return (table, ["columns": .object(JSONObject(members))])
  }

  #if os(Linux)
  @Test func twentyTwoDoublingConcatsStopAtTheColumnThatCrossesTheLimit() throws {
    let (table, params) = Self.doublingDerive(22)
    let resident = try #require(UnsafeResidentMemory.bytes())
    let limits = RunLimits(maxMemoryBytes: resident + 48 << 20)
    let message = try #require(
      KindHarness.failure {
        try KindHarness.run("derive", params, [.table(table)], environment: EvaluationEnvironment(limits: limits))
      })
    #expect(message.contains("would add") && message.contains("(raise it with --max-memory)"), "\(message)")
    // c_k holds 24 × 10 × 2^k bytes: c18 alone would be 60 MiB, past the 48 MiB of room, so the
    // derive stops at c18 or before (earlier if other tests hold memory), never at the end.
    let column = try #require(
      message.firstRange(of: "column 'c").map { message[$0.upperBound...].prefix { $0.isNumber } })
    #expect((1...18).contains(Int(column) ?? 0), "\(message)")
  }

  @Test func aJoinThatWouldPassTheMemoryLimitFailsBeforeGatheringARow() throws {
    // 2,000 × 2,000 matching rows: 4,000,000 output rows of 3 columns, at least 160 MB.
    let left = try Table([("k", Column(.integer([Int64](repeating: 1, count: 2_000))))])
    let right = try Table([
      ("k", Column(.integer([Int64](repeating: 1, count: 2_000)))),
      ("v", Column(.integer(Array(0..<2_000))))
    ])
    let resident = try #require(UnsafeResidentMemory.bytes())
    let limits = RunLimits(maxMemoryBytes: resident + 32 << 20)
    let message = try #require(
      KindHarness.failure {
        try KindHarness.run(
          "join", ["on": .array([.string("k")])], [.table(left), .table(right)],
          environment: EvaluationEnvironment(limits: limits))
      })
    #expect(
      message.hasPrefix("join output would add ") && message.hasSuffix("(raise it with --max-memory)"), "\(message)")
  }
  #endif

  @Test func aConcatWithinTheLimitIsBuilt() throws {
    let (table, params) = Self.doublingDerive(4)
    let outputs = try KindHarness.run(
      "derive", params, [.table(table)], environment: EvaluationEnvironment(limits: RunLimits()))
    let result = try #require(outputs.first?.tableValue)
    #expect(result.columnNames == ["x", "c1", "c2", "c3", "c4"])
    #expect(result.column(named: "c4").map { $0[0].text.utf8.count } == 160)
  }

  /// The limit lies far above what the test process holds (other suites run beside it), so
  /// only the allocation asked about can pass it.
  @Test func theCheckFailsBeforeTheAllocationItIsAskedAbout() {
    let limits = RunLimits(maxMemoryBytes: (UnsafeResidentMemory.bytes() ?? 0) + 8 << 30)
    #expect(throws: NodeError.self) { try limits.checkMemory(adding: 1 << 40, for: "column 'c'") }
    #expect(throws: Never.self) { try limits.checkMemory(adding: 0, for: "column 'c'") }
  }
}
