/// A saved graph: SwiftFlow's `FlowDocument` JSON with `NodeSpec` node data.
///
/// Read it with `FlowDocument(jsonBytes:)` (lenient where SwiftFlow is strict: a missing
/// viewport, position or size gets its default) and write it with `jsonString()` (always every
/// key, so SwiftFlow can read it). Reading checks the shape of the JSON only; graph rules
/// (ids, handles, kinds, cycles) are `DocumentValidator`'s job.
public struct FlowDocument: Sendable, Hashable {
  /// The format version this build writes in `"flowRuntime": {"formatVersion": …}`.
  public static let currentFormatVersion = 1

  public var nodes: [FlowNode]
  public var edges: [FlowEdge]
  public var viewport: Viewport
  /// Top-level keys other than `nodes`, `edges`, `viewport` and `flowRuntime`, kept as read.
  public var extra: JSONObject
  /// The saved state of live nodes (`flowRuntime.liveState`): node id → the state as JSON.
  /// Written only when not empty; the runtime restores it when an engine loads the document.
  public var liveState: JSONObject
  /// Kinds defined as graphs (`flowRuntime.subgraphs`, Reference.md, "Subgraphs"): name → definition.
  public var subgraphs: [String: SubgraphDefinition]
  /// Other documents whose definitions this one uses (`flowRuntime.imports`), as written:
  /// paths relative to this document's folder.
  public var imports: [String]
  /// How the document wrote what FlowRuntime reads into its own fields: the top level's key
  /// order, `flowRuntime`'s unknown keys and order, the definitions' order (see `ObjectShape`).
  public var shape = DocumentShape()
  /// The folder the document was read from (absolute; `init(contentsOf:)` sets it), against
  /// which file nodes' relative paths resolve when an engine runs it; `nil` for a document
  /// made in memory or parsed from bytes. Not saved.
  public var folder: String?

  public init(
    nodes: [FlowNode] = [], edges: [FlowEdge] = [], viewport: Viewport = Viewport(),
    extra: JSONObject = JSONObject(), liveState: JSONObject = JSONObject(),
    subgraphs: [String: SubgraphDefinition] = [:], imports: [String] = []
  ) {
    self.nodes = nodes
    self.edges = edges
    self.viewport = viewport
    self.extra = extra
    self.liveState = liveState
    self.subgraphs = subgraphs
    self.imports = imports
  }
}
