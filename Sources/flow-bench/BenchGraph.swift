import FlowNodes
import FlowRuntime
// `SeededRandom` (splitmix64, as WORKLOADS.md defines it; the tests' generator, which the
// differential CSV read also draws from) makes every generated graph and data file.
import FlowTestSupport

/// Builds workload graphs as documents, the way a host would hand them to FlowRuntime.
struct BenchGraph {
  var document = FlowDocument()

  /// Adds a node with id `n<index>` and returns the id.
  @discardableResult
  mutating func node(_ kind: String, _ params: JSONObject = [:]) -> String {
    let id = "n\(document.nodes.count)"
    document.nodes.append(FlowNode(id: id, data: NodeSpec(kind: kind, params: params)))
    return id
  }

  mutating func edge(_ source: String, _ sourcePort: String? = nil, to target: String, _ port: String) {
    document.edges.append(
      FlowEdge(
        id: "e\(document.edges.count)", sourceNodeID: source, sourceHandleID: sourcePort,
        targetNodeID: target, targetHandleID: port))
  }

  func evaluator(options: EngineOptions = EngineOptions()) -> GraphEvaluator {
    do {
      return try GraphEvaluator(validating: document, registry: BenchKinds.registry, options: options)
    } catch {
      fatalError("benchmark graph is invalid: \(error)")
    }
  }

  /// A chain: source → `length` add1 nodes.
  static func chain(_ length: Int) -> BenchGraph {
    var graph = BenchGraph()
    var previous = graph.node("source")
    for _ in 0..<length {
      let next = graph.node("add1")
      graph.edge(previous, to: next, "a")
      previous = next
    }
    return graph
  }

  /// A fan: source → `width` add1 nodes → one sum.
  static func fan(_ width: Int) -> BenchGraph {
    var graph = BenchGraph()
    let source = graph.node("source")
    let leaves = (0..<width).map { _ in graph.node("add1") }
    let sum = graph.node("sum", ["count": .number(Double(width))])
    for (index, leaf) in leaves.enumerated() {
      graph.edge(source, to: leaf, "a")
      graph.edge(leaf, to: sum, "in\(index)")
    }
    return graph
  }

  /// The W3 random DAG of WORKLOADS.md, and the W3a source it draws after the graph.
  static func randomDAG() -> (graph: BenchGraph, w3aSource: Int) {
    var random = SeededRandom(seed: 42)
    var graph = BenchGraph()
    graph.document.nodes.reserveCapacity(100_000)
    graph.document.edges.reserveCapacity(200_000)
    for index in 0..<1_000 { graph.node("source", ["value": .number(Double(index + 1))]) }
    for index in 1_000..<100_000 {
      let a = Int(random.next() % UInt64(index))
      let b = Int(random.next() % UInt64(index))
      let id = graph.node("addmod")
      graph.edge("n\(a)", to: id, "a")
      graph.edge("n\(b)", to: id, "b")
    }
    return (graph, Int(random.next() % 1_000))
  }
}

extension GraphEvaluator {
  /// The integer output of node `id` (benchmarks only read integer outputs).
  func integer(_ id: String, _ port: String = "result") -> Int64 {
    if case .integer(let value)? = value(of: id, port: port) { return value }
    return value(of: id, port: "value").flatMap { if case .integer(let n) = $0 { n } else { nil } } ?? -1
  }
}
