/// One accepted mutation (or batch) of a `FlowStore`, as observers receive it: node and edge
/// changes interleaved in the order they took effect, so applying them one by one to a copy of
/// the previous state always sees a valid graph.
public struct FlowStoreChange: Sendable, Hashable {
  /// One change, to a node or to an edge, or a definition edit's same replacement of inner
  /// nodes in many instances.
  ///
  /// A host switching over items exhaustively must handle `.subgraphReplaced` (added with
  /// definition edits in bulk); `expandedItems` lists the per-node changes instead.
  public enum Item: Sendable, Hashable {
    case node(NodeChange)
    case edge(EdgeChange)
    /// Many `.node(.replace(_:))` changes in one (see `SubgraphReplacement.nodeChanges`).
    case subgraphReplaced(SubgraphReplacement)
  }

  /// The store's revision after this change (revisions start at 0 and grow by one per
  /// accepted mutation or batch; `load` counts as one).
  public var revision: Int
  /// For `load`: the whole new graph (observers rebuild from it; `items` is then empty).
  public var reloadedDocument: FlowDocument? {
    get { reloaded?.value }
    set { reloaded = newValue.map(Boxed.init) }
  }
  /// `reloadedDocument`, boxed: changes move through delivery queues by value.
  private var reloaded: Boxed<FlowDocument>?
  public var items: [Item]
  /// What the store resolved while accepting the change, for engines (see `ChangeResolutions`);
  /// not part of the change's value (two changes differing only here are equal). Read in
  /// place (`_read`): the box is never copied out for a lookup.
  package var resolutions: ChangeResolutions {
    _read {
      if let resolved { yield resolved.value } else { yield ChangeResolutions.none }
    }
    set { resolved = Boxed(newValue) }
  }
  /// `resolutions`, boxed: a change moves by value through the delivery queue, the engine's
  /// observer and its state machine, and unboxed the resolutions (an inline payload, edge and
  /// signature each) were most of every copy.
  private var resolved: Boxed<ChangeResolutions>?

  /// Equal when the revision, the reloaded document and the items are: the resolutions are a
  /// cache beside the value.
  public static func == (lhs: FlowStoreChange, rhs: FlowStoreChange) -> Bool {
    lhs.revision == rhs.revision && lhs.reloaded == rhs.reloaded && lhs.items == rhs.items
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(revision)
    hasher.combine(reloaded)
    hasher.combine(items)
  }

  public init(revision: Int, reloadedDocument: FlowDocument? = nil, items: [Item]) {
    self.revision = revision
    self.reloaded = reloadedDocument.map(Boxed.init)
    self.items = items
  }

  /// The subgraph definitions this change added, replaced or removed (Reference.md, "Subgraphs"), by name;
  /// the inlined nodes that changed with them are in `items`.
  public var subgraphsChanged: [String] { resolutions.subgraphsChanged }

  /// The node changes, in order, as `onNodesChange` receives them (a `.subgraphReplaced`
  /// item expanded into its per-node changes).
  public var nodeChanges: [NodeChange] {
    var changes: [NodeChange] = []
    for item in items {
      switch item {
      case .node(let change): changes.append(change)
      case .subgraphReplaced(let replacement): changes += replacement.nodeChanges
      case .edge: break
      }
    }
    return changes
  }

  /// The edge changes, in order, as `onEdgesChange` receives them.
  public var edgeChanges: [EdgeChange] {
    items.compactMap { if case .edge(let change) = $0 { change } else { nil } }
  }

  /// `items` with each `.subgraphReplaced` item expanded into the `.node(.replace(_:))` items
  /// it stands for: the change as node and edge changes only.
  public var expandedItems: [Item] { Self.expanded(items) }

  /// How many node and edge changes the items stand for (`expandedItems.count`, without
  /// expanding).
  public var expandedItemCount: Int {
    items.reduce(0) { count, item in
      if case .subgraphReplaced(let replacement) = item { return count + replacement.nodeChangeCount }
      return count + 1
    }
  }

  /// `items` with each `.subgraphReplaced` item expanded (see `expandedItems`).
  static func expanded(_ items: [Item]) -> [Item] {
    guard items.contains(where: { if case .subgraphReplaced = $0 { true } else { false } }) else { return items }
    var expanded: [Item] = []
    for item in items {
      if case .subgraphReplaced(let replacement) = item {
        expanded += replacement.nodeChanges.map { .node($0) }
      } else {
        expanded.append(item)
      }
    }
    return expanded
  }
}
