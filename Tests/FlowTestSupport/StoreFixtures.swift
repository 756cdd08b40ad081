import FlowGraph

/// Records everything a `FlowStore` delivers: `onNodesChange` and `onEdgesChange` calls (it
/// takes both slots) and, through an observation it keeps, every `FlowStoreChange`.
///
///     let recorder = StoreRecorder(store)
///     try store.addNode(.node("c", "number"))
///     #expect(recorder.drain().nodeChanges == [[.add(.node("c", "number"))]])
public final class StoreRecorder: Sendable {
  /// What was delivered since the last `drain()`, in delivery order.
  public struct Log: Sendable, Equatable {
    public var nodeChanges: [[NodeChange]] = []
    public var edgeChanges: [[EdgeChange]] = []
    public var changes: [FlowStoreChange] = []

    public init(nodeChanges: [[NodeChange]] = [], edgeChanges: [[EdgeChange]] = [], changes: [FlowStoreChange] = []) {
      self.nodeChanges = nodeChanges
      self.edgeChanges = edgeChanges
      self.changes = changes
    }

    /// Whether nothing was delivered.
    public var isEmpty: Bool { nodeChanges.isEmpty && edgeChanges.isEmpty && changes.isEmpty }
  }

  private final class Box: Sendable {
    let log = Locked(Log())
  }

  private let box = Box()
  private let observation: FlowStore.Observation
  /// The revision the recording started from.
  public let startRevision: Int

  /// Starts recording `store`'s deliveries, replacing its `onNodesChange` / `onEdgesChange`.
  public init(_ store: FlowStore) {
    let box = self.box
    let (_, revision, observation) = store.observe { change in box.log.withLock { $0.changes.append(change) } }
    self.observation = observation
    startRevision = revision
    store.onNodesChange = { changes in box.log.withLock { $0.nodeChanges.append(changes) } }
    store.onEdgesChange = { changes in box.log.withLock { $0.edgeChanges.append(changes) } }
  }

  /// Returns what was recorded so far and forgets it.
  public func drain() -> Log {
    box.log.withLock { log in
      defer { log = Log() }
      return log
    }
  }

  /// What was recorded so far, kept.
  public var log: Log { box.log.withLock { $0 } }
}

/// Everything observable about a store's graph, for "nothing changed" comparisons.
public struct StoreContents: Equatable, CustomStringConvertible {
  public var revision: Int
  public var nodes: [FlowNode]
  public var edges: [FlowEdge]
  /// `incomingEdges` / `outgoingEdges` ids of every node, in order.
  public var incoming: [String: [String]]
  public var outgoing: [String: [String]]
  public var canUndo: Bool
  public var canRedo: Bool

  public init(_ store: FlowStore) {
    revision = store.revision
    nodes = store.nodes
    edges = store.edges
    incoming = [:]
    outgoing = [:]
    for node in nodes {
      incoming[node.id] = store.incomingEdges(of: node.id).map(\.id)
      outgoing[node.id] = store.outgoingEdges(of: node.id).map(\.id)
    }
    canUndo = store.canUndo
    canRedo = store.canRedo
  }

  public var description: String {
    "revision \(revision): nodes \(nodes.map(\.id)), edges \(edges.map { "\($0.id): \($0.endpointsDescription)" })"
  }
}

extension FlowStore {
  /// A store of `TestCatalog` kinds holding `document`; traps if the document is invalid.
  public static func testing(_ document: FlowDocument = FlowDocument()) -> FlowStore {
    do {
      return try FlowStore(catalog: TestCatalog(), document: document)
    } catch {
      preconditionFailure("invalid test document: \(error)")
    }
  }
}

/// Documents for store tests.
public enum StoreFixtures {
  /// `a`, `b` (number) → `sum` (add) → `p` (pass), and `show` (display): edges `e1` a.value →
  /// sum.a, `e2` b.value → sum.b, `e3` sum.result → p.in.
  public static func calculator() -> FlowDocument {
    FlowDocument(
      nodes: [
        .node("a", "number"), .node("b", "number"), .node("sum", "add"), .node("p", "pass"),
        .node("show", "display")
      ],
      edges: [.edge("e1", "a.value", "sum.a"), .edge("e2", "b.value", "sum.b"), .edge("e3", "sum.result", "p.in")])
  }

  /// A store holding `calculator()`, with a recorder attached.
  public static func calculatorStore() -> (FlowStore, StoreRecorder) {
    let store = FlowStore.testing(calculator())
    return (store, StoreRecorder(store))
  }

  /// A random DAG of `nodeCount` `merge` nodes `n0`, `n1`, … with `inputs` inputs each and about
  /// `edgeCount` edges `e0`, `e1`, … from `out` into free inputs, going forward in a random
  /// permutation of the nodes (so neither ids nor document order are a topological order).
  ///
  /// - Complexity: O(*n* + *m*).
  public static func randomDAG(nodeCount: Int, edgeCount: Int, inputs: Int = 4, seed: UInt64) -> FlowDocument {
    var random = SeededRandom(seed: seed)
    var rank = Array(0..<nodeCount)
    rank.shuffle(using: &random)
    var used = [Int](repeating: 0, count: nodeCount)
    var edges: [FlowEdge] = []
    edges.reserveCapacity(edgeCount)
    for _ in 0..<edgeCount where nodeCount > 1 {
      var source = Int.random(in: 0..<nodeCount, using: &random)
      var target = Int.random(in: 0..<nodeCount, using: &random)
      if source == target { continue }
      if rank[source] > rank[target] { swap(&source, &target) }
      guard used[target] < inputs else { continue }
      edges.append(
        FlowEdge(
          id: "e\(edges.count)", sourceNodeID: "n\(source)", sourceHandleID: "out",
          targetNodeID: "n\(target)", targetHandleID: "in\(used[target])"))
      used[target] += 1
    }
    let nodes = (0..<nodeCount).map { FlowNode.node("n\($0)", "merge", params: ["inputs": .number(Double(inputs))]) }
    return FlowDocument(nodes: nodes, edges: edges)
  }
}

/// A value shared between tasks and handlers, behind a lock.
public final class LockedValue<Value: Sendable>: Sendable {
  private let mutex: Locked<Value>

  public init(_ value: Value) { mutex = Locked(value) }

  /// Runs `body` with exclusive access to the value.
  public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }

  /// The current value.
  public var value: Value { withLock { $0 } }
}
