/// A store operation as guards see it and the operation history records it: what kind of
/// operation, which nodes and edges it touches, and the values it proposes.
///
/// The same value is a request: `FlowStore.apply(_:)` performs one synchronously and
/// `FlowStore.perform(_:)` queues one behind the async guards. Make one with the static
/// factories (`.addNode(node)`, `.removeEdge(id: "e1")`, `.batch([...])`, `.undo`, …).
///
/// What the store fills in when it describes an operation to a guard:
/// - add, update: the node (edge) proposed, and its id;
/// - remove: the id only;
/// - load: the new document (`document`), without ids;
/// - batch, undo, redo: every node and edge id the operation changes, in the order it changes
///   them (a removed node's edges included), and in `nodes`/`edges` the values those left in
///   the graph will have; a batch made with `.batch(_:)` keeps its `operations`. An async guard
///   sees an undo or redo before it is applied, hence without ids.
public struct StoreOperation: Sendable, Hashable, CustomStringConvertible {
  /// The kind of an operation. An open set of names (`rawValue`), like `GraphIssue.Code`.
  public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, as the operation history and messages show it.
    public var rawValue: String

    /// A kind named `rawValue` (the standard kinds are the static constants).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Adding one node (`FlowStore.addNode(_:)`).
    public static let addNode = Kind(rawValue: "addNode")
    /// Removing one node and its edges (`FlowStore.removeNode(id:)`).
    public static let removeNode = Kind(rawValue: "removeNode")
    /// Replacing one node's data (`FlowStore.updateNode(_:)`).
    public static let updateNode = Kind(rawValue: "updateNode")
    /// Adding one edge (`FlowStore.addEdge(_:)`).
    public static let addEdge = Kind(rawValue: "addEdge")
    /// Removing one edge (`FlowStore.removeEdge(id:)`).
    public static let removeEdge = Kind(rawValue: "removeEdge")
    /// Replacing one edge (`FlowStore.updateEdge(_:)`).
    public static let updateEdge = Kind(rawValue: "updateEdge")
    /// Several operations, all or nothing (`FlowStore.batch(_:)`).
    public static let batch = Kind(rawValue: "batch")
    /// Undoing the last mutation or batch (`FlowStore.undo()`).
    public static let undo = Kind(rawValue: "undo")
    /// Redoing the last undone step (`FlowStore.redo()`).
    public static let redo = Kind(rawValue: "redo")
    /// Replacing the whole graph (`FlowStore.load(_:)`).
    public static let load = Kind(rawValue: "load")

    /// The kind's name.
    public var description: String { rawValue }
  }

  /// What kind of operation this is.
  public var kind: Kind
  /// The ids of the nodes the operation adds, removes or changes, in order, without repeats.
  public var nodeIDs: [String]
  /// The ids of the edges the operation adds, removes or changes, in order, without repeats.
  public var edgeIDs: [String]
  /// The nodes as the operation proposes them (added or changed ones).
  public var nodes: [FlowNode]
  /// The edges as the operation proposes them (added or changed ones).
  public var edges: [FlowEdge]
  /// For `.load`: the document to load.
  public var document: FlowDocument?
  /// For `.batch` made with `.batch(_:)`: its operations, in order.
  public var operations: [StoreOperation]

  /// An operation with the given parts (prefer the static factories, which fill in the ids).
  public init(
    kind: Kind, nodeIDs: [String] = [], edgeIDs: [String] = [], nodes: [FlowNode] = [],
    edges: [FlowEdge] = [], document: FlowDocument? = nil, operations: [StoreOperation] = []
  ) {
    self.kind = kind
    self.nodeIDs = nodeIDs
    self.edgeIDs = edgeIDs
    self.nodes = nodes
    self.edges = edges
    self.document = document
    self.operations = operations
  }

  /// Adds `node` (see `FlowStore.addNode(_:)`).
  public static func addNode(_ node: FlowNode) -> StoreOperation {
    StoreOperation(kind: .addNode, nodeIDs: [node.id], nodes: [node])
  }

  /// Removes a node and its edges (see `FlowStore.removeNode(id:)`).
  public static func removeNode(id: String) -> StoreOperation { StoreOperation(kind: .removeNode, nodeIDs: [id]) }

  /// Replaces the node with `node.id` (see `FlowStore.updateNode(_:)`).
  public static func updateNode(_ node: FlowNode) -> StoreOperation {
    StoreOperation(kind: .updateNode, nodeIDs: [node.id], nodes: [node])
  }

  /// Adds `edge` (see `FlowStore.addEdge(_:)`).
  public static func addEdge(_ edge: FlowEdge) -> StoreOperation {
    StoreOperation(kind: .addEdge, edgeIDs: [edge.id], edges: [edge])
  }

  /// Removes an edge (see `FlowStore.removeEdge(id:)`).
  public static func removeEdge(id: String) -> StoreOperation { StoreOperation(kind: .removeEdge, edgeIDs: [id]) }

  /// Replaces the edge with `edge.id` (see `FlowStore.updateEdge(_:)`).
  public static func updateEdge(_ edge: FlowEdge) -> StoreOperation {
    StoreOperation(kind: .updateEdge, edgeIDs: [edge.id], edges: [edge])
  }

  /// Applies `operations` (adds, removes and updates) all or nothing, as one undo step.
  public static func batch(_ operations: [StoreOperation]) -> StoreOperation {
    var operation = StoreOperation(kind: .batch, operations: operations)
    operation.nodeIDs = Self.unique(operations.flatMap(\.nodeIDs))
    operation.edgeIDs = Self.unique(operations.flatMap(\.edgeIDs))
    return operation
  }

  /// Undoes the last mutation or batch.
  public static var undo: StoreOperation { StoreOperation(kind: .undo) }

  /// Redoes the last undone mutation or batch.
  public static var redo: StoreOperation { StoreOperation(kind: .redo) }

  /// Replaces the graph by `document`, clearing undo history.
  public static func load(_ document: FlowDocument) -> StoreOperation {
    StoreOperation(kind: .load, document: document)
  }

  /// `addNode [a]`, `batch [a, b] [e1]`, `load (3 nodes, 2 edges)`.
  public var description: String {
    var text = kind.rawValue
    if !nodeIDs.isEmpty { text += " [\(nodeIDs.joined(separator: ", "))]" }
    if !edgeIDs.isEmpty { text += " [\(edgeIDs.joined(separator: ", "))]" }
    if let document { text += " (\(document.nodes.count) nodes, \(document.edges.count) edges)" }
    return text
  }

  /// `ids` without repeats, first occurrence kept.
  static func unique(_ ids: [String]) -> [String] {
    var seen = Set<String>()
    return ids.filter { seen.insert($0).inserted }
  }
}
