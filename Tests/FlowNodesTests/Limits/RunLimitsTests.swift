import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Reference.md, "Files and limits": hostile documents end with a node failure naming the limit and the option
/// that raises it, and stop *before* the big allocation: the `LimitProbe` seam shows that no
/// string or table larger than the limit was ever granted.
@Suite struct RunLimitsTests {
  /// An evaluator over `document` whose registry has `limits`.
  static func evaluator(_ document: FlowDocument, limits: RunLimits) throws -> GraphEvaluator {
    var registry = NodeKindRegistry.standard
    registry.environment.limits = limits
    return try GraphEvaluator(validating: document, registry: registry)
  }

  /// `text` → 40 × `format "{x}{x}"`: each node doubles the text (2 TB at the end).
  static func doublingChain(_ count: Int = 40) -> FlowDocument {
    var nodes: [FlowNode] = [.node("t", "text", params: ["value": .string("ab")])]
    var edges: [FlowEdge] = []
    for index in 0..<count {
      nodes.append(.node("f\(index)", "format", params: ["template": .string("{x}{x}")]))
      edges.append(.edge("e\(index)", index == 0 ? "t.value" : "f\(index - 1).text", "f\(index).x"))
    }
    return FlowDocument(nodes: nodes, edges: edges)
  }

  @Test func fortyChainedFormatsStopAtTheStringLimitBeforeBuildingTheString() throws {
    var evaluator = try Self.evaluator(Self.doublingChain(), limits: RunLimits(maxStringBytes: 4096))
    let probe = LimitProbe()
    LimitProbe.$current.withValue(probe) { _ = evaluator.evaluate() }
    // f_k holds 2^(k+2) bytes: f10 has 4096, f11 would have 8192.
    #expect(evaluator.value(of: "f10", port: "text").map { $0.text.utf8.count } == 4096)
    #expect(
      evaluator.failure(of: "f11")
        == "format output would have 8192 bytes, more than the string limit 4096 (raise it with --max-string-bytes)")
    #expect(evaluator.failure(of: "f39") == "upstream error from f11")
    #expect(probe.largestStringBytesGranted == 4096)
    #expect(probe.refusedCount == 1)
  }

  @Test func theDefaultStringLimitStopsTheChainAt256MiB() {
    let limits = RunLimits()
    #expect(limits.maxStringBytes == 256 << 20)
    #expect(limits.maxRows == 100_000_000)
    #expect(limits.maxMemoryBytes > 0)
    #expect(throws: NodeError.self) { try limits.checkStringBytes(1 << 41, of: "format output") }
  }

  @Test func aJoinWhoseOutputWouldPassTheRowLimitFailsBeforeGatheringARow() throws {
    let left = try Table([("k", Column(.integer([Int64](repeating: 1, count: 200))))])
    let right = try Table([
      ("k", Column(.integer([Int64](repeating: 1, count: 300)))),
      ("v", Column(.integer(Array(0..<300))))
    ])
    let probe = LimitProbe()
    let message = LimitProbe.$current.withValue(probe) {
      KindHarness.failure {
        try KindHarness.run(
          "join", ["on": .array([.string("k")])], [.table(left), .table(right)],
          environment: EvaluationEnvironment(limits: RunLimits(maxRows: 1000)))
      }
    }
    #expect(message == "join output would have 60000 rows, more than the row limit 1000 (raise it with --max-rows)")
    #expect(probe.largestRowsGranted == 0)
    #expect(probe.refusedCount == 1)
  }

  @Test func aJoinWithinTheRowLimitCountsExactlyItsOutput() throws {
    let left = try Table([("k", Column(.integer([1, 2, 3, 1])))])
    let right = try Table([("k", Column(.integer([1, 1, 3]))), ("v", Column(.integer([10, 11, 30])))])
    let probe = LimitProbe()
    let table = try LimitProbe.$current.withValue(probe) {
      try KindHarness.run(
        "join", ["on": .array([.string("k")]), "how": .string("left")], [.table(left), .table(right)],
        environment: EvaluationEnvironment(limits: RunLimits(maxRows: 6)))
    }
    guard case .table(let joined)? = table.first else { Issue.record("no table"); return }
    #expect(joined.rowCount == 6)  // 1 → 2 matches, 2 → unmatched, 3 → 1, 1 → 2
    #expect(probe.largestRowsGranted == 6)
  }

  @Test func aLongStringPastTheLimitFailsTheNodeThatMadeIt() throws {
    let document = FlowDocument(nodes: [
      .node("t", "text", params: ["value": .string(String(repeating: "x", count: 2000))])
    ])
    var evaluator = try Self.evaluator(document, limits: RunLimits(maxStringBytes: 1000))
    evaluator.evaluate()
    #expect(
      evaluator.failure(of: "t")
        == "the output string has 2000 bytes, more than the string limit 1000 (raise it with --max-string-bytes)")
  }

  @Test func aConcatPastTheStringLimitFailsTheDerive() throws {
    let table = try Table([("s", .strings([String(repeating: "x", count: 600), "y"]))])
    let params: JSONObject = [
      "columns": .object(JSONObject([JSONMember(key: "twice", value: .string("concat(s, s)"))]))
    ]
    let message = KindHarness.failure {
      try KindHarness.run(
        "derive", params, [.table(table)],
        environment: EvaluationEnvironment(limits: RunLimits(maxStringBytes: 1000)))
    }
    #expect(
      message?.contains("1200 bytes") == true && message?.contains("column 'twice'") == true,
      "\(String(describing: message))")
    let fits = try KindHarness.run(
      "derive", params, [.table(table)],
      environment: EvaluationEnvironment(limits: RunLimits(maxStringBytes: 1200)))
    #expect(fits.first?.tableValue?.rowCount == 2)
  }

  @Test func readTextPastTheStringLimitFailsBeforeMakingTheString() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(repeating: UInt8(ascii: "a"), count: 5000).write(to: URL(fileURLWithPath: folder + "/big.txt"))
    let probe = LimitProbe()
    let message = LimitProbe.$current.withValue(probe) {
      KindHarness.failure {
        try KindHarness.run(
          "readText", ["path": .string("big.txt")],
          environment: EvaluationEnvironment(documentFolder: folder, limits: RunLimits(maxStringBytes: 100)))
      }
    }
    #expect(
      message?.hasSuffix("would have 5000 bytes, more than the string limit 100 (raise it with --max-string-bytes)")
        == true,
      "\(message ?? "no failure")")
    #expect(probe.largestStringBytesGranted == 0)
  }

  @Test func aTablePastTheRowLimitFailsTheNodeThatMadeIt() throws {
    let rows: [JSONValue] = (0..<5).map { .object(["a": .number(Double($0))]) }
    let document = FlowDocument(nodes: [
      .node("d", "derive", params: ["columns": .object(["b": .string("a * 2")]), "table": .array(rows)])
    ])
    var evaluator = try Self.evaluator(document, limits: RunLimits(maxRows: 3))
    evaluator.evaluate()
    #expect(
      evaluator.failure(of: "d") == "the output table has 5 rows, more than the row limit 3 (raise it with --max-rows)")
  }

  @Test func aReadCSVCellPastTheStringLimitFailsTheReadNamingTheCell() throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Column `b` holds 1,600 bytes in all, more than the limit, but only row 3's cell passes it.
    let cells = [String(repeating: "y", count: 500), "z", String(repeating: "w", count: 1099)]
    let text = "a,b\n" + cells.enumerated().map { "\($0.offset),\"\($0.element)\"" }.joined(separator: "\n") + "\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/long.csv"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder, limits: RunLimits(maxStringBytes: 1000))
    let document = FlowDocument(nodes: [.node("r", "readCSV", params: ["path": .string("long.csv")])])
    var evaluator = try GraphEvaluator(validating: document, registry: registry)
    evaluator.evaluate()
    #expect(
      evaluator.failure(of: "r")
        == "cell 3 of column 'b' has 1099 bytes, more than the string limit 1000 (raise it with --max-string-bytes)")
    // Within the limit cell by cell, the same column reads even though its bytes add up past it.
    registry.environment.limits = RunLimits(maxStringBytes: 1099)
    var fits = try GraphEvaluator(validating: document, registry: registry)
    fits.evaluate()
    #expect(fits.failures.isEmpty)
    #expect(fits.value(of: "r", port: "table")?.tableValue?.rowCount == 3)
  }

  @Test func aDictionaryColumnIsMeasuredByTheEntriesItsRowsUse() throws {
    let limits = RunLimits(maxStringBytes: 10)
    let entries = StringColumn(["short", String(repeating: "l", count: 11), "ok"])
    // Rows use entries 0, 2, 0: the long entry is unused (as after a filter) and passes.
    let unused = try Table([("s", Column(.string(StringColumn(dictionary: entries, codes: [0, 2, 0]))))])
    #expect(limits.longCellError(in: unused) == nil)
    let used = try Table([("s", Column(.string(StringColumn(dictionary: entries, codes: [0, 2, 1, 1]))))])
    #expect(
      limits.longCellError(in: used)?.message
        == "cell 3 of column 's' has 11 bytes, more than the string limit 10 (raise it with --max-string-bytes)")
    let flat = try Table([("s", Column(.string(StringColumn(["a", "b", String(repeating: "x", count: 12)]))))])
    #expect(
      limits.longCellError(in: flat)?.message
        == "cell 3 of column 's' has 12 bytes, more than the string limit 10 (raise it with --max-string-bytes)")
  }

  @Test func theEngineChecksExpensiveNodesRunInChildTasksToo() async throws {
    let rows: [JSONValue] = (0..<5).map { .object(["a": .number(Double($0))]) }
    let document = FlowDocument(
      nodes: [
        .node("d", "derive", params: ["columns": .object(["b": .string("a * 2")]), "table": .array(rows)]),
        .node("e", "derive", params: ["columns": .object(["c": .string("b + 1")])])
      ],
      edges: [.edge("x", "d.table", "e.table")])
    var registry = NodeKindRegistry.standard
    registry.environment.limits = RunLimits(maxRows: 3)
    let engine = try FlowEngine(document: document, registry: registry)
    defer { engine.shutDown() }
    await engine.evaluate()
    #expect(
      await engine.failure(of: "d")
        == "the output table has 5 rows, more than the row limit 3 (raise it with --max-rows)")
    #expect(await engine.failure(of: "e") == "upstream error from d")
  }

  #if os(Linux)
  @Test func anExpensiveNodePastTheMemoryLimitFails() throws {
    let document = FlowDocument(nodes: [
      .node(
        "d", "derive",
        params: ["columns": .object(["b": .string("a * 2")]), "table": .array([.object(["a": .number(1)])])])
    ])
    var evaluator = try Self.evaluator(document, limits: RunLimits(maxMemoryBytes: 1024))
    evaluator.evaluate()
    let message = try #require(evaluator.failure(of: "d"))
    #expect(message.hasPrefix("memory in use ("), "\(message)")
    #expect(message.hasSuffix(") is past the memory limit 1.0 KiB (raise it with --max-memory)"), "\(message)")
  }
  #endif

  @Test func limitsDoNotTouchOrdinaryWork() throws {
    var evaluator = try Self.evaluator(Self.doublingChain(8), limits: RunLimits())
    evaluator.evaluate()
    #expect(evaluator.failures.isEmpty)
    #expect(evaluator.value(of: "f7", port: "text").map { $0.text.utf8.count } == 512)
  }
}
