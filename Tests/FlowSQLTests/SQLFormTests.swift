import FlowNodes
import FlowRuntime
@testable import FlowSQL
import Testing

/// The exporter finds a kind's SQL form on the kind the registry holds (`SQLRelationalKind`),
/// never by its name: every refusal is the declared form's reason, and a kind that takes a
/// standard kind's name without its form is refused as untranslatable.
@Suite struct SQLFormTests {
  /// A compiler over a document of one node per kind, named `n0`, `n1`, … in `kinds`' order.
  static func compiler(_ kinds: [String], registry: NodeKindRegistry = .standard) throws -> SQLCompiler {
    let nodes = kinds.enumerated().map { FlowNode(id: "n\($0.offset)", data: NodeSpec(kind: $0.element)) }
    let plan = try SQLGraphPlan(FlowDocument(nodes: nodes), chosen: [])
    return SQLCompiler(dialect: .duckdb, registry: registry, plan: plan)
  }

  @Test func everyStandardKindWithoutATableFormIsRefusedWithItsFormsReason() throws {
    let registry = NodeKindRegistry.standard
    let declared = registry.allKinds.compactMap { kind in
      (kind as? any SQLRelationalKind).map { (kind.name, $0.sqlForm) }
    }
    let compiler = try Self.compiler(declared.map(\.0))
    var refused = 0
    for (position, (name, form)) in declared.enumerated() {
      let node = compiler.plan.nodes[position]
      #expect(node.data.kind == name)
      if case .none(let refusal) = form {
        refused += 1
        #expect(compiler.noSQLForm(node) == refusal.reason(name), "\(name)")
      } else {
        #expect(compiler.noSQLForm(node) == nil, "\(name) has a table form")
      }
    }
    // The live, pivot, scalar or list, and text or scalar kinds of the standard set.
    #expect(refused >= 20)
    #expect(declared.count - refused >= 17, "the readers, table operators and writers")
  }

  @Test func aKindTakingAStandardNameWithoutItsFormIsUntranslatable() throws {
    var registry = NodeKindRegistry.standard
    registry.register(Renamed())
    let compiler = try Self.compiler(["filter"], registry: registry)
    #expect(compiler.sqlForm(of: "filter") == nil)
    #expect(compiler.noSQLForm(compiler.plan.nodes[0])?.contains("has no SQL translation") == true)
    #expect(try Self.compiler(["filter"]).sqlForm(of: "filter") == .filter)
  }

  /// A kind registered under the standard `filter`'s name, with no SQL form of its own.
  struct Renamed: StaticNodeKind {
    var name: String { "filter" }
    var summary: String { "passes its table" }
    var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
    var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
  }
}
