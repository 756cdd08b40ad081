import FlowGraph

extension GraphEvaluator {
  /// `apply(_:)` for a change whose payloads may each serve several nodes (a definition edit:
  /// the store resolved each changed inner node once for all instances). A node whose kind
  /// `sharesConfiguration` takes the one configuration; any other (a custom kind that keeps
  /// per-node state in its instance) is configured here, on its own. The payloads are walked
  /// in item order beside the items (no search per item).
  mutating func applySharingPayloads(_ change: FlowStoreChange) {
    let payloads = change.resolutions.payloads.all
    var next = 0
    for (index, item) in change.items.enumerated() {
      while next < payloads.count && payloads[next].index < index { next += 1 }
      let payload = next < payloads.count && payloads[next].index == index ? payloads[next].value : nil
      switch item {
      case .node(.add(let node)):
        addNode(node, configured: registry.configured(fromSharedPayload: payload) ?? registry.configureValidated(node))
      case .node(.replace(let node)):
        replaceNode(node, configured: registry.configured(fromSharedPayload: payload) ?? registry.configureValidated(node))
      default:
        apply(item, payload: payload, previousEdge: change.resolutions.previousEdges[index])
      }
    }
  }
}
