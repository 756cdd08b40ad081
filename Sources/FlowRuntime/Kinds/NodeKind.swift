/// A kind of node: the vocabulary documents name in `data.kind`.
///
/// A kind declares its params and, from a node's params, makes a `NodeInstance` (ports and
/// evaluator). Kinds whose ports never depend on params adopt `StaticNodeKind` instead and
/// only write `evaluate`.
public protocol NodeKind: Sendable {
  /// The name documents use in `data.kind`, such as `"add"`.
  var name: String { get }
  /// One line for `flow nodes`.
  var summary: String { get }
  /// The params the kind reads, besides params named like its inputs (which set them).
  var parameters: [ParameterDeclaration] { get }

  /// Configures a node of this kind.
  ///
  /// - Parameter parameters: the declared params, type-checked, defaults filled in.
  /// - Throws: `NodeConfigurationError` naming a param whose value the kind rejects.
  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance

  /// Whether nodes with the same spec may share one configuration (one `NodeInstance`): true
  /// when the instance `instantiate` returns holds no per-node mutable state (a live kind's
  /// state lives in the engine, per node, and does not count). An engine then configures a
  /// definition's inner node once for all its instances. `false` by default; `true` for
  /// `StaticNodeKind`s, whose nodes already share the kind itself.
  var sharesConfiguration: Bool { get }

  /// Whether a node's outputs depend only on its params, its inputs and (for a reader) the
  /// file it reads: then `flow run --cache` may keep them and serve them to a later run. `true`
  /// by default; a kind that reads a clock, draws random numbers or asks the outside world
  /// says `false`. Live nodes are never served from the cache, whatever their kind says.
  var isDeterministic: Bool { get }

  /// The version of what the kind computes, part of every cache key of its nodes: raise it
  /// when the outputs for the same params and inputs change (1 by default).
  var kindVersion: Int { get }

  /// This kind as a `StaticNodeKind`, if it is one. Answered by the protocols' extensions: the
  /// engine asks it of every registered kind at start, where a cast's first answer for a type
  /// would scan the process's conformance records. A kind whose conformance the compiler
  /// cannot see where it conforms to `NodeKind` (a conditional conformance of a generic kind,
  /// a subclass adopting it, a conformance added in another module) answers it itself, beside
  /// its `NodeKind` conformance: `self as? any StaticNodeKind`; otherwise the engine treats it
  /// as a kind with ports by params (nothing is shared, the results are the same).
  var asStaticKind: (any StaticNodeKind)? { get }

  /// This kind as a `ColumnProjectingKind`, if it is one (answered as `asStaticKind` is; a
  /// kind it misses reads every column).
  var asColumnProjectingKind: (any ColumnProjectingKind)? { get }
}

extension NodeKind {
  public var parameters: [ParameterDeclaration] { [] }
  public var sharesConfiguration: Bool { false }
  public var isDeterministic: Bool { true }
  public var kindVersion: Int { 1 }
  public var asStaticKind: (any StaticNodeKind)? { nil }
  public var asColumnProjectingKind: (any ColumnProjectingKind)? { nil }
}

/// A kind with fixed ports that evaluates itself.
public protocol StaticNodeKind: NodeKind, NodeEvaluator {
  var inputs: [InputPort] { get }
  var outputs: [PortDeclaration] { get }
  var cost: NodeCost { get }
  /// Whether `evaluate` reads its inputs by port name (`inputs.number("a")`); `false` by
  /// default (by index only, one call less per evaluation).
  var readsInputsByName: Bool { get }
  /// The typed fast path of `evaluate` for number ports (`nil` by default): see
  /// `ScalarEvaluation`. It must compute what `evaluate` computes.
  var scalarEvaluation: ScalarEvaluation? { get }
}

extension StaticNodeKind {
  public var asStaticKind: (any StaticNodeKind)? { self }
  public var cost: NodeCost { .cheap }
  public var readsInputsByName: Bool { false }
  public var scalarEvaluation: ScalarEvaluation? { nil }
  public var sharesConfiguration: Bool { true }

  public func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let instance = NodeInstance(
      inputs: inputs, outputs: outputs, evaluator: self, cost: cost, scalarEvaluation: scalarEvaluation)
    return readsInputsByName ? instance.namingInputs() : instance
  }
}
