extension NodeEvaluator {
  /// Evaluates once on `inputs` (in port order) and returns the `outputCount` outputs: how a
  /// host outside the engine (`flow run`'s streamed chains, `StreamedChain` in FlowNodes) runs
  /// a kind's own kernel on a piece of a table.
  package func evaluate(_ inputs: [Value], outputCount: Int) throws -> [Value] {
    var outputs = NodeOutputs([Value](repeating: .null, count: outputCount))
    try evaluate(NodeInputs(inputs), &outputs)
    return outputs.values
  }
}
