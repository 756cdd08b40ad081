/// The parts of a document's top level that `FlowDocument`'s fields do not hold, kept so that
/// writing the document keeps them (see `ObjectShape`): the order of the top-level keys, the
/// keys of `flowRuntime` FlowRuntime does not know, and the order of the subgraph definitions.
public struct DocumentShape: Sendable, Hashable {
  /// Every top-level key in the order read, when not sorted.
  public var order: [String]?
  /// `flowRuntime`'s unknown keys and key order.
  public var runtime: ObjectShape?
  /// The definitions' names in the order read (`flowRuntime.subgraphs`), when not sorted.
  public var subgraphOrder: [String]?

  /// Equal when `flowRuntime`'s unknown keys are: orders are how a document was written, not
  /// what it means (see `ObjectShape`).
  public static func == (lhs: DocumentShape, rhs: DocumentShape) -> Bool { lhs.runtime == rhs.runtime }

  public func hash(into hasher: inout Hasher) { hasher.combine(runtime) }

  public init(order: [String]? = nil, runtime: ObjectShape? = nil, subgraphOrder: [String]? = nil) {
    self.order = order
    self.runtime = runtime
    self.subgraphOrder = subgraphOrder
  }
}
