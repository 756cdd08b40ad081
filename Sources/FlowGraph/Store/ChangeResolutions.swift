/// What a `FlowStore` resolved while accepting a change, handed to engines with it so they
/// neither resolve a node spec again nor keep an index of edges by id.
///
/// A cache beside the change's items, not part of its value: every two are equal, and it
/// hashes to nothing. Missing entries are allowed (a change made by hand has none); an engine
/// then resolves what it needs itself.
package struct ChangeResolutions: Sendable, Hashable {
  /// By item index: the catalog's payload (`NodeCatalog.resolveWithPayload`) for the spec of a
  /// node the item adds or replaces.
  package var payloads = ItemValues<any Sendable>()
  /// Whether one payload may serve several items (a definition's inner node, resolved once for
  /// all its instances): an engine then takes it only for kinds that share configurations.
  package var payloadsShared = false
  /// For a `.subgraphReplaced` item (at most one per change): the payload of each of its inner
  /// nodes, by index in `innerNodes`, shared by every instance (as `payloadsShared`).
  package var inlinedPayloads: [(any Sendable)?] = []
  /// By item index: the signature of a node the item adds or replaces when edges feed some of
  /// its params (`NodeSignature.feedsParameters`): its spec resolves without those inputs, so an
  /// engine configures the node to match this signature instead.
  package var signatures = ItemValues<NodeSignature>()
  /// By item index: the edge as it was before the item removed or replaced it.
  package var previousEdges = ItemValues<FlowEdge>()
  /// For a `load`: the new graph with dense indices, and the payload of each node by index.
  package var reloaded: Reload? {
    get { reloadedBox?.value }
    set { reloadedBox = newValue.map(Boxed.init) }
  }
  /// `reloaded`, boxed: a `ResolvedGraph` holds a whole document, and changes move by value.
  private var reloadedBox: Boxed<Reload>?

  /// A `load`'s resolution: the new graph and its nodes' payloads by index.
  package struct Reload: Sendable {
    package var graph: ResolvedGraph
    package var payloads: [(any Sendable)?]
  }
  /// The definitions the change added, replaced or removed (`FlowStore.setSubgraph`).
  package var subgraphsChanged: [String] = []

  package init() {}

  /// Nothing resolved (a change made by hand).
  package static let none = ChangeResolutions()

  package static func == (_: ChangeResolutions, _: ChangeResolutions) -> Bool { true }

  package func hash(into hasher: inout Hasher) {}
}
