/// The computation of a stateful live node: from its committed state and its inputs to its
/// outputs and its next state.
///
/// The engine calls `step` once per pass in which the node is affected, with the state of the
/// last pass that *completed*; the returned state is staged and committed only when this pass
/// completes (a superseded pass discards it and runs the node again in the next one). So a
/// step must be a pure function of its arguments.
public protocol StatefulNodeEvaluator: Sendable {
  /// The state of a node that joins the graph.
  var initialState: Value { get }

  /// Reads state saved with a document.
  ///
  /// - Throws: `NodeError` saying why the state is unreadable; the node then fails naming itself.
  func restore(_ saved: Value) throws(NodeError) -> Value

  /// Computes the outputs and the next state.
  ///
  /// - Parameters:
  ///   - state: the committed state.
  ///   - inputs: the input values, in port order.
  ///   - context: why the node runs (an emission, changed inputs).
  ///   - outputs: the previous outputs; write each output.
  /// - Returns: the next state.
  func step(_ state: Value, _ inputs: NodeInputs, _ context: LiveContext, _ outputs: inout NodeOutputs) throws -> Value
}

/// Why a stateful node runs in this pass.
public struct LiveContext: Sendable, Hashable {
  /// The pass was started by an emission of a source this node descends from.
  public var isEmission: Bool
  /// Some input differs from the inputs of the node's last completed run (always true on the
  /// first run).
  public var inputsChanged: Bool

  public init(isEmission: Bool, inputsChanged: Bool) {
    self.isEmission = isEmission
    self.inputsChanged = inputsChanged
  }

  /// Whether the pass carries an event for this node: an emission or a changed input.
  public var isEvent: Bool { isEmission || inputsChanged }
}
