import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// Every validation error of Reference.md, "Subgraphs", each naming what it should.
@Suite struct SubgraphValidationTests {
  typealias F = SubgraphFixtures

  /// A definition with one input and one output whose middle node is of `kind`.
  static func wrapper(_ kind: String) -> SubgraphDefinition {
    SubgraphDefinition(
      nodes: [F.input("i", "x"), .node("mid", kind), F.output("o", "y")],
      edges: [.edge("e1", "i.value", "mid.x"), .edge("e2", "mid.y", "o.value")])
  }

  @Test func aDefinitionUsingItselfIsACycleNamingTheChain() {
    let direct = F.problems(F.document([.node("a1", "a", params: ["x": 1])], subgraphs: ["a": Self.wrapper("a")]))
    #expect(direct.contains { $0.contains("subgraph 'a' uses itself") && $0.contains("a → a") }, "\(direct)")
    let indirect = F.problems(
      F.document(
        [.node("p", "ping", params: ["x": 1])],
        subgraphs: ["ping": Self.wrapper("pong"), "pong": Self.wrapper("ping")]))
    #expect(indirect.contains { $0.contains("cycle") && $0.contains("ping → pong → ping") }, "\(indirect)")
  }

  @Test func recursionThroughAnImportNamesTheImportedDocument() {
    let imported = SubgraphSource(origin: "lib.flow.json", definitions: ["pong": Self.wrapper("ping")])
    let problems = F.problems(
      F.document([.node("p", "ping", params: ["x": 1])], subgraphs: ["ping": Self.wrapper("pong")]),
      imported: [imported])
    #expect(problems.contains { $0.contains("ping → pong (in lib.flow.json) → ping") }, "\(problems)")
  }

  @Test func nestingDeeperThan64IsAnError() {
    var subgraphs: [String: SubgraphDefinition] = ["d66": Self.wrapper("add")]
    for level in 0..<66 { subgraphs["d\(level)"] = Self.wrapper("d\(level + 1)") }
    subgraphs["d66"] = SubgraphDefinition(
      nodes: [F.input("i", "x"), F.output("o", "y")], edges: [.edge("e", "i.value", "o.value")])
    let problems = F.problems(F.document([.node("deep", "d0", params: ["x": 1])], subgraphs: subgraphs))
    #expect(problems.contains { $0.contains("deep; at most 64 levels") }, "\(problems)")
    // 64 levels are fine.
    var fine: [String: SubgraphDefinition] = [:]
    for level in 0..<63 { fine["d\(level)"] = Self.wrapper("d\(level + 1)") }
    fine["d63"] = subgraphs["d66"]
    #expect(F.problems(F.document([.node("deep", "d0", params: ["x": 1])], subgraphs: fine)).isEmpty)
  }

  @Test func nameClashesNameBothPlaces() {
    let imported = SubgraphSource(origin: "lib.flow.json", definitions: ["ratio": F.ratio])
    let twice = F.problems(F.document([], subgraphs: ["ratio": F.ratio]), imported: [imported])
    #expect(
      twice.contains { $0.contains("subgraph 'ratio' is defined twice: in this document and in lib.flow.json") },
      "\(twice)")
    let builtIn = F.problems(F.document([], subgraphs: ["add": F.ratio]))
    #expect(
      builtIn.contains {
        $0.contains("subgraph 'add' in this document has the name of a built-in or registered kind 'add'")
      },
      "\(builtIn)")
  }

  @Test func innerProblemsNameTheDefinitionAndTheInnerID() {
    var bad = F.ratio
    bad.nodes.append(.node("typo", "multipy"))
    bad.edges.append(.edge("e9", "q.result", "n.zz"))
    let problems = F.problems(F.document([], subgraphs: ["ratio": bad]))
    #expect(
      problems.contains { $0.hasPrefix("subgraph 'ratio': node 'typo' has unknown kind 'multipy'") }, "\(problems)")
    #expect(problems.contains { $0.hasPrefix("subgraph 'ratio':") && $0.contains("e9") }, "\(problems)")
  }

  @Test func boundaryNodesAreCheckedAndValidOnlyInsideDefinitions() {
    let outside = F.problems(F.document([F.input("i", "x")], subgraphs: ["ratio": F.ratio]))
    #expect(
      outside.contains { $0.contains("node 'i'") && $0.contains("valid only inside a subgraph definition") },
      "\(outside)")
    var badPorts = F.ratio
    badPorts.nodes.append(F.input("n2", "num"))
    badPorts.nodes.append(.node("t", "input", params: ["name": "t", "type": "complex"]))
    let problems = F.problems(F.document([], subgraphs: ["ratio": badPorts]))
    #expect(
      problems.contains { $0.contains("subgraph 'ratio': node 't' (input): param 'type' must be one of") },
      "\(problems)")
  }

  @Test func instancesAreCheckedAgainstTheirDefinitionsPorts() {
    let subgraphs = ["ratio": F.ratio]
    let missing = F.problems(F.document([.node("half", "ratio", params: ["den": 2])], subgraphs: subgraphs))
    #expect(
      missing == ["node 'half' (ratio): input 'num' is required (it has no default): connect it or set the param 'num'"]
    )
    let unknownParam = F.problems(
      F.document([.node("half", "ratio", params: ["num": 1, "dem": 2])], subgraphs: subgraphs))
    #expect(
      unknownParam.contains { $0.contains("param 'dem' is not an input of subgraph 'ratio' (did you mean 'den'?)") },
      "\(unknownParam)")
    let wrongType = F.problems(F.document([.node("half", "ratio", params: ["num": "one"])], subgraphs: subgraphs))
    #expect(wrongType.contains { $0.contains("param 'num' sets input 'num' and must be a number") }, "\(wrongType)")
    let badEdge = F.problems(
      F.document(
        [.node("one", "number"), .node("half", "ratio", params: ["num": 1])],
        [.edge("t1", "one.value", "half.zz")], subgraphs: subgraphs))
    #expect(badEdge.contains { $0.contains("t1") && $0.contains("zz") }, "\(badEdge)")
  }

  @Test func aTopLevelIDWithASlashMayNotEqualAnInlinedOne() {
    let problems = F.problems(
      F.document(
        [.node("half", "ratio", params: ["num": 1]), .node("half/q", "number")],
        subgraphs: ["ratio": F.ratio]))
    #expect(problems == ["node id 'half/q' is also the id of a node inlined from instance 'half'; rename the node"])
    #expect(
      F.problems(
        F.document(
          [.node("half", "ratio", params: ["num": 1]), .node("half/x", "number")],
          subgraphs: ["ratio": F.ratio])
      ).isEmpty)
  }

  @Test func importsResolveAgainstTheDocumentsFolderUnderTheReadPolicy() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("subgraph-imports-\(UUID().uuidString)")
      .path
    let folder = root + "/doc"
    try FileManager.default.createDirectory(atPath: folder + "/lib", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    var library = FlowDocument(subgraphs: ["ratio": F.ratio])
    library.imports = ["more.flow.json", "../lib/more.flow.json"]  // the same file twice: read once
    try library.jsonString().write(toFile: folder + "/lib/shapes.flow.json", atomically: true, encoding: .utf8)
    try FlowDocument(subgraphs: ["circle": F.circle]).jsonString().write(
      toFile: folder + "/lib/more.flow.json", atomically: true, encoding: .utf8)
    try FlowDocument(subgraphs: ["x": F.circle]).jsonString().write(
      toFile: root + "/outside.flow.json", atomically: true, encoding: .utf8)
    let policy = FileAccessPolicy(readableRoots: [folder], writableRoots: [])
    var document = FlowDocument(nodes: [.node("h", "ratio", params: ["num": 1]), .node("c", "circle", params: ["r": 1])]
    )
    document.imports = ["lib/shapes.flow.json", "lib/shapes.flow.json"]
    let sources = try SubgraphImports.sources(of: document, folder: folder, policy: policy)
    #expect(sources.map(\.origin) == ["lib/shapes.flow.json", "more.flow.json"])
    let expanded = try ExpandedDocument(document, imported: sources, catalog: NodeKindRegistry.standard)
    #expect(expanded.library.names == ["circle", "ratio"])
    #expect(expanded.library["circle"]?.origin == "more.flow.json")
    document.imports = ["../outside.flow.json"]
    let error = #expect(throws: GraphValidationError.self) {
      try SubgraphImports.sources(of: document, folder: folder, policy: policy)
    }
    #expect(
      error?.description.contains("import '../outside.flow.json' (in this document): path outside the allowed folders")
        == true,
      "\(String(describing: error))")
  }
}

extension SubgraphValidationTests {
  /// The problems of one instance of `d0`, each level `d<k>` holding ten instances of the next
  /// and the last (`d<levels>`) an input into an output: 3 × 10^levels + … nodes.
  static func tenfoldNesting(levels: Int) -> [String] {
    var subgraphs: [String: SubgraphDefinition] = [
      "d\(levels)": SubgraphDefinition(
        nodes: [F.input("i", "x", default: 0), F.output("o", "y")], edges: [.edge("e", "i.value", "o.value")])
    ]
    for level in (0..<levels).reversed() {
      subgraphs["d\(level)"] = SubgraphDefinition(nodes: (0..<10).map { .node("m\($0)", "d\(level + 1)") })
    }
    return F.problems(F.document([.node("big", "d0")], subgraphs: subgraphs))
  }

  @Test func nestingThatWouldInlineTooManyNodesIsRefused() {
    // 10^9 nodes from a document of a few KB.
    let problems = Self.tenfoldNesting(levels: 9)
    #expect(
      problems.count == 1
        && problems[0].hasPrefix("inlining the instances would make 3111111111 nodes; at most 1000000"),
      "\(problems)")
  }

  @Test func nestingThatWouldInlineMillionsOfNodesIsRefusedBeforeExpanding() {
    // Three million inlined nodes from a few hundred bytes: expanding them took gigabytes and
    // minutes, so the document is refused up front.
    let problems = Self.tenfoldNesting(levels: 6)
    #expect(
      problems.count == 1 && problems[0].hasPrefix("inlining the instances would make 3111111 nodes; at most 1000000"),
      "\(problems)")
  }
}
