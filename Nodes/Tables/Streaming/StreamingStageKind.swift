import FlowRuntime

/// A table kind as `flow run` registers it while streaming: the kind itself, plus the hidden
/// param `StreamingPlan.stageParameter` ("chain/stage") that the plan sets on the nodes of a
/// streamed chain; such a node records its own evaluator in the chain and evaluates through it
/// (`StageEvaluator`). Nodes without the param are the kind's own.
struct StreamingStageKind: NodeKind {
  let base: any NodeKind
  let chains: [StreamedChain]

  var name: String { base.name }
  var summary: String { base.summary }
  var parameters: [ParameterDeclaration] {
    base.parameters + [
      ParameterDeclaration(StreamingPlan.stageParameter, .string, summary: "set by flow run: chain/stage")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    var instance = try base.instantiate(parameters)
    guard let marker = parameters.string(StreamingPlan.stageParameter) else { return instance }
    let parts = marker.split(separator: "/")
    guard parts.count == 2, let chain = Int(parts[0]), let stage = Int(parts[1]), chains.indices.contains(chain),
      chains[chain].nodeIDs.indices.contains(stage), !instance.outputs.isEmpty
    else { return instance }
    chains[chain].setEvaluator(instance.evaluator, at: stage)
    instance.evaluator = StageEvaluator(chain: chains[chain], stage: stage, base: instance.evaluator)
    return instance
  }
}
