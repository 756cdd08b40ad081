/// Every node names a known kind with valid params, and declared handles agree with its ports.
enum NodeSpecRule {
  static func check(_ context: inout ValidationContext) {
    context.signatures.reserveCapacity(context.document.nodes.count)
    let nodes = context.document.nodes
    let resolutions = context.resolutions
    for index in nodes.indices {
      // The common case reads two fields; a whole `FlowNode` is copied only for messages.
      if case .resolved(let signature) = resolutions[index], nodes[index].handles == nil {
        context.signatures.append(signature)
      } else {
        context.signatures.append(check(nodes[index], resolutions[index], in: &context))
      }
    }
  }

  static func check(_ node: FlowNode, _ resolution: NodeSpecResolution, in context: inout ValidationContext)
    -> NodeSignature?
  {
    switch resolution {
    case .unknownKind:
      context.report(
        GraphIssue(.unknownKind, "node '\(node.id)' has unknown kind '\(node.data.kind)'", nodeIDs: [node.id]))
      return nil
    case .invalidParameters(let problems):
      for problem in problems {
        context.report(
          GraphIssue(
            .invalidParameter,
            "node '\(node.id)' (\(node.data.kind)): param '\(problem.parameter)' \(problem.reason)",
            nodeIDs: [node.id], parameter: problem.parameter))
      }
      return nil
    case .resolved(let signature):
      if let handles = node.handles {
        for issue in disagreements(of: handles, with: signature, node: node) { context.report(issue) }
      }
      return signature
    }
  }

  /// Issues for declared handles that do not match the kind's ports one to one.
  static func disagreements(
    of handles: [HandleDeclaration], with signature: NodeSignature,
    node: FlowNode
  ) -> [GraphIssue] {
    var issues: [GraphIssue] = []
    func issue(_ handle: String, _ text: String) {
      issues.append(
        GraphIssue(
          .handlesDisagreeWithKind, "node '\(node.id)' (\(node.data.kind)): handle '\(handle)' \(text)",
          nodeIDs: [node.id], handleID: handle))
    }
    // Sets, not searches: a node may declare thousands of handles (one per formula variable).
    let inputNames = Set(signature.inputs.map(\.name))
    let outputNames = Set(signature.outputs.map(\.name))
    for handle in handles {
      let isInput = inputNames.contains(handle.id)
      let isOutput = outputNames.contains(handle.id)
      switch handle.type {
      case .target where !isInput && signature.parameterInput(named: handle.id) == nil:
        issue(
          handle.id,
          isOutput ? "is declared as a target but '\(handle.id)' is an output port" : "is not an input port of the kind"
        )
      case .source where !isOutput:
        issue(
          handle.id,
          isInput ? "is declared as a source but '\(handle.id)' is an input port" : "is not an output port of the kind")
      default: break
      }
    }
    let targets = Set(handles.lazy.filter { $0.type == .target }.map(\.id))
    let sources = Set(handles.lazy.filter { $0.type == .source }.map(\.id))
    for port in signature.inputs where !targets.contains(port.name) {
      issue(port.name, "is missing: the kind has an input port '\(port.name)' (a target handle)")
    }
    for port in signature.outputs where !sources.contains(port.name) {
      issue(port.name, "is missing: the kind has an output port '\(port.name)' (a source handle)")
    }
    return issues
  }
}
