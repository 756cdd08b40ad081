import FlowGraph
import FlowRuntime
import FlowTestSupport
import Testing

/// A definition with thousands of inputs: each edge into an instance finds its port by name
/// (an index, not a scan of the ports per edge, which made such a document quadratic).
@Suite struct SubgraphManyPortsTests {
  typealias F = SubgraphFixtures

  @Test func everyEdgeIntoAWideInstanceTargetsItsOwnInputNode() throws {
    let count = 3_000
    var inner = (0..<count).map { F.input("i\($0)", "p\($0)", default: 0) }
    inner.append(F.output("o", "y"))
    let wide = SubgraphDefinition(nodes: inner, edges: [.edge("e", "i0.value", "o.value")])
    // Sources wired in reverse, so a port's position never matches its source's.
    var nodes: [FlowNode] = [.node("t", "W")]
    var edges: [FlowEdge] = []
    for index in 0..<count {
      nodes.append(.node("c\(index)", "number", params: ["value": .number(Double(index))]))
      edges.append(.edge("x\(index)", "c\(index).value", "t.p\(count - 1 - index)"))
    }
    let document = F.document(nodes, edges, subgraphs: ["W": wide])
    let expanded = try ExpandedDocument(document, imported: [], catalog: NodeKindRegistry.standard)
    let targets = Dictionary(
      expanded.flat.edges.filter { $0.id.hasPrefix("x") }.map { ($0.sourceNodeID, $0.targetNodeID) },
      uniquingKeysWith: { a, _ in a })
    #expect(targets.count == count)
    #expect((0..<count).allSatisfy { targets["c\($0)"] == "t/i\(count - 1 - $0)" })
    #expect(
      expanded.library["W"]?.input(named: "p7")?.nodeID == "i7" && expanded.library["W"]?.input(named: "q") == nil)
  }
}
