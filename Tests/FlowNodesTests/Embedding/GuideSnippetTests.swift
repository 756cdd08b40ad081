import Foundation
import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

// The Swift blocks of README.md and Documentation/CustomKinds.md that no example or other test
// holds, each as written there (CI's Scripts/check-snippets.py checks that every block of those
// guides is in a compiled file), run against small documents.

/// What the snippets print, per test (a task-local, so parallel tests keep their own lines).
enum SnippetOutput {
  @TaskLocal static var lines: Locked<[String]>?
}

/// The snippets' `print`: records the line. A snippet that ends in an endless `for await` over a
/// node's states stops after printing the first one: the print cancels the task, and the
/// engine's sequence ends.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  SnippetOutput.lines?.withLock { $0.append(items.map { "\($0)" }.joined(separator: separator)) }
  if items.first is NodeUpdate { withUnsafeCurrentTask { $0?.cancel() } }
}

@Suite struct GuideSnippetTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

  /// Runs `body` and returns what it printed.
  static func printed(_ body: () async throws -> Void) async throws -> [String] {
    let lines = Locked<[String]>([])
    try await SnippetOutput.$lines.withValue(lines) { try await body() }
    return lines.withLock { $0 }
  }

  /// README.md, "Embedding it in an app", on the calculator example.
  static func readmeEmbedding(_ data: Data) async throws {
    let document = try FlowDocument(jsonBytes: Array(data))  // or build one in code
    let engine = try FlowEngine(document: document, registry: .standard)
    await engine.evaluate()  // the first, full pass

    var node = engine.store.node(id: "quantity")!
    node.data.params["value"] = 10
    try engine.store.updateNode(node)  // validated; schedules a pass
    let report = await engine.evaluate()!  // waits for that revision
    print(report.ran, report.cutOff, await engine.outputs(of: "total") ?? [:])
    print(await engine.state(of: "total") ?? .notComputed)  // .value, .failed, .pending or .notComputed

    // "r3 .value(…)": the current state first, then each change
    for await update in engine.values(of: "total") { print(update) }
    engine.shutDown()
  }

  @Test func theReadmeEmbeddingSnippetRunsIncrementally() async throws {
    let data = try Data(contentsOf: Self.examples.appendingPathComponent("calculator.flow.json"))
    let lines = try await Task { try await Self.printed { try await Self.readmeEmbedding(data) } }.value
    #expect(lines.count == 3, "\(lines)")
    #expect(lines.first?.contains("quantity") == true, "the pass ran the edited node: \(lines)")
    #expect(lines.last?.hasPrefix("r1 ") == true, "the current state, of revision 1: \(lines)")
  }

  /// Documentation/CustomKinds.md, the first kind (the README names it).
  @Test func theReadmeCustomKindConvertsCelsius() throws {
    struct Fahrenheit: StaticNodeKind {
      var name: String { "fahrenheit" }
      var summary: String { "converts celsius to fahrenheit" }
      var inputs: [InputPort] { [InputPort("celsius", .number, default: .number(0))] }
      var outputs: [PortDeclaration] { [PortDeclaration("fahrenheit", .number)] }
      var readsInputsByName: Bool { true }

      func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
        outputs[0] = .number(try inputs.number("celsius") * 9 / 5 + 32)
      }
    }

    var registry = NodeKindRegistry.standard  // import FlowNodes
    registry.register(Fahrenheit())

    var evaluator = try GraphEvaluator(validating: Self.celsius(100), registry: registry)
    evaluator.evaluate()
    #expect(evaluator.value(of: "toF", port: "fahrenheit") == .number(212))
  }

  /// `reading` (35 °C) → `toF` (fahrenheit).
  static func celsius(_ value: Double) -> FlowDocument {
    FlowDocument(
      nodes: [.node("reading", "number", params: ["value": .number(value)]), .node("toF", "fahrenheit")],
      edges: [.edge("e1", "reading.value", "toF.celsius")])
  }

  /// Documentation/CustomKinds.md, "Registering and using the kind" (both blocks), with the
  /// guide's `Fahrenheit` and `Clamp` (Examples/CustomKind holds them).
  @Test func theGuidesRegistrationAndUnitTestBlocksRun() async throws {
    let document = Self.celsius(35)
    let lines = try await Self.printed {
      var registry = NodeKindRegistry.standard  // number, add, …, expression, group
      registry.register(Fahrenheit())  // a later kind with the same name replaces it
      registry.register(Clamp())

      let engine = try FlowEngine(document: document, registry: registry)
      await engine.evaluate()
      print(await engine.outputs(of: "toF")?["fahrenheit"] ?? "?")
      engine.shutDown()

      var evaluator = try GraphEvaluator(validating: document, registry: registry)
      evaluator.evaluate()
      #expect(evaluator.value(of: "toF", port: "fahrenheit") == .number(95))
    }
    #expect(lines == ["95"])
  }
}
