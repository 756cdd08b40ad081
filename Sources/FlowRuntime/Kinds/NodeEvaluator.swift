/// The computation of a configured node: from input values to output values.
///
/// Called once per pass in which the node is affected, possibly on any thread (`Sendable`).
/// Long computations should check `Task.isCancelled` and throw `CancellationError` so a
/// superseded pass stops quickly.
public protocol NodeEvaluator: Sendable {
  /// Computes the outputs from the inputs.
  ///
  /// - Parameters:
  ///   - inputs: one value per input port, in port order.
  ///   - outputs: one slot per output port, holding the previous values; write each output.
  /// - Throws: any error; the node then fails with the error's description as its message.
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws
}
