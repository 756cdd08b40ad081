/// One accepted mutation (or batch) of a `FlowStore`, as observers receive it: node and edge
/// changes interleaved in the order they took effect, so applying them one by one to a copy of
/// the previous state always sees a valid graph.
public struct FlowStoreChange: Sendable, Hashable {
  /// One change, to a node or to an edge.
  public enum Item: Sendable, Hashable {
    case node(NodeChange)
    case edge(EdgeChange)
  }

  /// The store's revision after this change (revisions start at 0 and grow by one per
  /// accepted mutation or batch; `load` counts as one).
  public var revision: Int
  /// For `load`: the whole new graph (observers rebuild from it; `items` is then empty).
  public var reloadedDocument: FlowDocument?
  public var items: [Item]
  /// What the store resolved while accepting the change, for engines (see `ChangeResolutions`);
  /// not part of the change's value (two changes differing only here are equal).
  package var resolutions = ChangeResolutions()

  public init(revision: Int, reloadedDocument: FlowDocument? = nil, items: [Item]) {
    self.revision = revision
    self.reloadedDocument = reloadedDocument
    self.items = items
  }

  /// The subgraph definitions this change added, replaced or removed (SPEC §9), by name;
  /// the inlined nodes that changed with them are in `items`.
  public var subgraphsChanged: [String] { resolutions.subgraphsChanged }

  /// The node changes, in order, as `onNodesChange` receives them.
  public var nodeChanges: [NodeChange] {
    items.compactMap { if case .node(let change) = $0 { change } else { nil } }
  }

  /// The edge changes, in order, as `onEdgesChange` receives them.
  public var edgeChanges: [EdgeChange] {
    items.compactMap { if case .edge(let change) = $0 { change } else { nil } }
  }
}
