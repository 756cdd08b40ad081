/// What the graph layer needs to know about node kinds: the ports a node spec resolves to.
///
/// `FlowGraph` validates documents and store mutations without knowing any kind; the runtime's
/// registry conforms to this protocol and answers for the kinds it holds.
public protocol NodeCatalog: Sendable {
  /// Resolves a node spec to its ports.
  ///
  /// - Parameter spec: the node's `data`.
  /// - Returns: the signature, or why the spec does not describe a valid node.
  func resolve(_ spec: NodeSpec) -> NodeSpecResolution

  /// Resolves a node spec and also returns the catalog's own result for it (the runtime's
  /// registry returns the configured node), opaque to the graph layer. `FlowStore` keeps it
  /// and hands it to engines with the graph and with each change, so that a spec is resolved
  /// once, not once by the store and again by each engine.
  ///
  /// The default implementation returns `resolve(spec)` and no payload.
  func resolveWithPayload(_ spec: NodeSpec) -> (resolution: NodeSpecResolution, payload: (any Sendable)?)

  /// Subgraph definitions the catalog provides to every document (a host's registered
  /// library, Reference.md, "Subgraphs"); none by default.
  var subgraphSources: [SubgraphSource] { get }
}

extension NodeCatalog {
  public var subgraphSources: [SubgraphSource] { [] }

  public func resolveWithPayload(_ spec: NodeSpec) -> (resolution: NodeSpecResolution, payload: (any Sendable)?) {
    (resolve(spec), nil)
  }
}

/// The outcome of resolving a node spec against a catalog.
public enum NodeSpecResolution: Sendable, Hashable {
  case resolved(NodeSignature)
  case unknownKind
  /// One entry per offending param: the param's name and what is wrong with it.
  case invalidParameters([ParameterProblem])
}

/// A param that a node kind rejects, with the reason.
public struct ParameterProblem: Sendable, Hashable {
  public var parameter: String
  public var reason: String

  public init(parameter: String, reason: String) {
    self.parameter = parameter
    self.reason = reason
  }
}
