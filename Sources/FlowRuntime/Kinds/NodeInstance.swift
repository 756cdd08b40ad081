import FlowGraph

/// A node kind configured by one node's params: its ports, its evaluator and its cost.
public struct NodeInstance: Sendable {
  public var inputs: [InputPort]
  public var outputs: [PortDeclaration]
  public var evaluator: any NodeEvaluator
  public var cost: NodeCost
  /// A container (`group`) has no ports and is never evaluated.
  public var isContainer: Bool
  /// Set for live kinds: the node keeps state across passes, or emits on its own.
  public var live: LiveBehavior?
  /// The typed fast path, for a node with one output whose ports are numbers (see
  /// `ScalarEvaluation`); the engine uses it when the shapes match and `evaluator` otherwise.
  public var scalarEvaluation: ScalarEvaluation?

  public init(
    inputs: [InputPort], outputs: [PortDeclaration], evaluator: any NodeEvaluator,
    cost: NodeCost = .cheap, isContainer: Bool = false, live: LiveBehavior? = nil,
    scalarEvaluation: ScalarEvaluation? = nil
  ) {
    self.live = live
    self.scalarEvaluation = scalarEvaluation
    self.inputs = inputs
    self.outputs = outputs
    self.evaluator = evaluator
    self.cost = cost
    self.isContainer = isContainer
  }

  /// The ports as the graph layer sees them.
  public var signature: NodeSignature {
    NodeSignature(inputs: inputs.map(\.declaration), outputs: outputs, isContainer: isContainer)
  }
}
