import FlowGraph
import FlowNodes
import FlowRuntime
import Testing

/// Hosts set the limits of a run in `EngineOptions` too (Reference.md, "Files and limits"): kinds configured by the
/// engine and the evaluator's output checks both use them.
@Suite struct EngineOptionsLimitsTests {
  static let document = FlowDocument(
    nodes: [
      .node("t", "text", params: ["value": "abcdef"]), .node("f", "format", params: ["template": "{x}{x}"]),
      .node("g", "format", params: ["template": "{x}"])
    ],
    edges: [.edge("e1", "t", "f"), .edge("e2", "t", "g")])

  static var options: EngineOptions {
    var options = EngineOptions()
    options.limits = RunLimits(maxStringBytes: 10)
    return options
  }

  @Test func anEvaluatorUsesTheLimitsOfItsOptions() throws {
    var evaluator = try GraphEvaluator(validating: Self.document, registry: .standard, options: Self.options)
    evaluator.evaluate()
    #expect(
      evaluator.failure(of: "f")?.contains("more than the string limit 10 (raise it with --max-string-bytes)") == true)
    #expect(evaluator.failure(of: "g") == nil)
    #expect(evaluator.value(of: "g", port: "text") == .string("abcdef"))
  }

  @Test func anEngineUsesTheLimitsOfItsOptions() async throws {
    let engine = try FlowEngine(document: Self.document, registry: .standard, options: Self.options)
    await engine.evaluate()
    #expect(await engine.failure(of: "f")?.contains("string limit 10") == true)
    #expect(await engine.failure(of: "g") == nil)
    engine.shutDown()
  }

  @Test func withoutLimitsInTheOptionsTheRegistrysApply() throws {
    var registry = NodeKindRegistry.standard
    registry.environment.limits = RunLimits(maxStringBytes: 10)
    var evaluator = try GraphEvaluator(validating: Self.document, registry: registry)
    evaluator.evaluate()
    #expect(evaluator.failure(of: "f")?.contains("string limit 10") == true)
    var unlimited = try GraphEvaluator(validating: Self.document, registry: .standard)
    unlimited.evaluate()
    #expect(unlimited.value(of: "f", port: "text") == .string("abcdefabcdef"))
  }
}
