/// What `PassStateMachine` reads of the graph and of the nodes' state to decide a pass: shape,
/// order, failure roots, and what each node is. It reads, never writes: effects (running a
/// kind, storing outputs, recording failures) are the executor's, which then tells the machine
/// the outcome.
///
/// `GraphEvaluator` conforms (`GraphEvaluator+PassGraph.swift`); tests conform plain models.
/// Methods take the graph as a borrowed argument, so no conformer is copied into the machine.
protocol PassGraph {
  /// The number of node indices (present or removed).
  var passNodeCount: Int { get }
  /// One more than the largest topological position in use.
  var passPositionCapacity: Int { get }
  /// The topological position of `node`: every edge goes from a smaller to a larger one.
  func passPosition(of node: Int32) -> Int32
  /// The node at `position` (a position the machine pushed).
  func passNode(at position: Int32) -> Int32
  /// How many edges leave `node` (a successor is listed once per edge).
  func passSuccessorCount(of node: Int32) -> Int
  /// The target of the `offset`-th edge leaving `node`.
  func passSuccessor(_ offset: Int, of node: Int32) -> Int32
  /// How many input ports `node` has.
  func passInputCount(of node: Int32) -> Int
  /// The node feeding input `port` of `node`, or -1 when the input is unconnected.
  func passInputSource(_ port: Int, of node: Int32) -> Int32
  /// The node where `node`'s current failure started, or -1 when it is not failed.
  func passFailureRoot(of node: Int32) -> Int32
  /// What `node` is, for the pass's decisions.
  func passRole(of node: Int32) -> PassRole
  /// Whether some input of `node` comes from a node waiting for a live source's first emission.
  func passHasPendingInput(_ node: Int32) -> Bool
  /// Whether some node may be failed (`false` lets `NodeDisposition` skip the input scan).
  var passHasFailures: Bool { get }
  /// Whether `node` has lazy inputs (`LazyNodeEvaluator`).
  func passHasLazyInputs(_ node: Int32) -> Bool
}

extension PassGraph {
  var passHasFailures: Bool { true }
  func passHasLazyInputs(_ node: Int32) -> Bool { false }
}

/// What a node is to a pass (`PassGraph.passRole`), before the states of its inputs count
/// (`NodeDisposition` decides from both).
enum PassRole: UInt8, Sendable {
  /// Never runs (a container, a removed node): finished unchanged when reached.
  case inert
  /// Not necessary in a demand-driven pass: the executor marks it stale (inline).
  case unnecessary
  /// A live node: the executor runs it inline (sources, stateful steps).
  case live
  /// Runs inline: cheaper than a child task.
  case cheap
  /// Worth a child task (`NodeCost.expensive`).
  case expensive
}
