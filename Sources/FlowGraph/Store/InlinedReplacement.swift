/// The store step of a definition edit in bulk (`StoreStep.replaceInlined`): the same inner
/// nodes of many instances take the same new specs, by slot, with no per-node change record.
///
/// Invariants: `slots` holds `after.innerNodes.count` slots per instance of `after.instanceIDs`,
/// instance-major; `before` and `after` list the same instances and inner ids; each inner node
/// differs between them only in its spec, and both specs resolve to the signature the slot
/// holds (no edge moves).
struct InlinedReplacement: Sendable {
  var slots: [Int32]
  var before: SubgraphReplacement
  var after: SubgraphReplacement
  /// The `StoreStamps` tokens of `before`'s and `after`'s inner nodes at their template offsets
  /// (empty where the step sets none: one renumbered by compaction).
  var beforeTokens: [UInt64] = []
  var afterTokens: [UInt64] = []

  /// The step that undoes this one.
  var inverted: InlinedReplacement {
    InlinedReplacement(slots: slots, before: after, after: before, beforeTokens: afterTokens, afterTokens: beforeTokens)
  }
}

extension StoreState {
  /// `apply(_:)` of `.replaceInlined`: every listed slot takes its inner node's new spec.
  ///
  /// - Complexity: O(slots), no allocation per node.
  mutating func replaceInlinedStep(_ replacement: InlinedReplacement) -> (
    inverse: StoreStep, item: FlowStoreChange.Item?
  ) {
    let specs = replacement.after.innerNodes.map(\.data)
    let tokens = replacement.afterTokens.count == specs.count ? replacement.afterTokens : []
    if !tokens.isEmpty, let last = replacement.slots.max() { stamps.reserve(through: Int(last)) }
    var slot = 0
    while slot < replacement.slots.count {
      for (inner, spec) in specs.enumerated() {
        let index = Int(replacement.slots[slot])
        // Optional chaining assigns in place (no node copied out and back); `nil`: an empty slot.
        let replaced: Void? = (nodes[index]?.data = spec)
        precondition(replaced != nil, "Internal inconsistency: replacing inlined node in empty slot \(index)")
        stamps.set(index, to: tokens.isEmpty ? 0 : tokens[inner])
        slot += 1
      }
    }
    return (.replaceInlined(replacement.inverted), .subgraphReplaced(replacement.after))
  }

  /// The bulk step for a definition edit of `name` whose `affected` instances (with their
  /// slots, in slot order) are all of kind `name` and whose template diff only changes the
  /// specs of shared inner nodes, keeping their ports; `nil` where anything differs (an inner
  /// node edited on its own, moved, not found by template offset, a spec that does not resolve
  /// cleanly), and the edit then goes node by node.
  ///
  /// - Returns: the step and the payload of each replaced inner node, resolved once.
  /// - Complexity: O(instances × replaced inner nodes), no allocation per node.
  mutating func bulkReplacement(
    of name: String, _ instances: [StoreSubgraphs.Instance], _ affected: [(slot: Int32, index: Int32)],
    _ change: inout DefinitionChange
  ) -> (step: InlinedReplacement, payloads: [(any Sendable)?])? {
    guard !affected.isEmpty, let diff = change.diff(name), diff.portsStay, diff.removedEdges.isEmpty,
      diff.removedNodes.isEmpty, diff.addedEdges.isEmpty, !diff.placedNodes.isEmpty,
      diff.before.nodes.count == diff.after.nodes.count
    else { return nil }
    var beforeNodes: [FlowNode] = [], afterNodes: [FlowNode] = [], offsets: [Int] = []
    var payloads: [(any Sendable)?] = []
    for index in diff.placedNodes {
      guard diff.isShared[index], let old = diff.oldIndex[index] else { return nil }
      let before = diff.before.nodes[old], after = diff.after.nodes[index]
      guard before.parentID == nil, after.handles == nil, before.data != after.data else { return nil }
      var probe = after
      probe.data = before.data
      guard probe == before, let resolved = diff.resolved(index, of: after, catalog: catalog) else { return nil }
      beforeNodes.append(before)
      afterNodes.append(after)
      offsets.append(old)
      payloads.append(resolved.payload)
      // The same ports: checked against the first instance's node (every instance's node has
      // the template's spec, checked below, hence the same signature).
      let first = Int(affected[0].slot) - (diff.before.nodes.count - 1) + old
      guard first >= 0, first < signatures.count, signatures[first] == resolved.signature else { return nil }
    }
    // The layout stays (same node count, same offsets): `after`'s tokens claim the offsets
    // the nodes have in it, which are `before`'s.
    let count = diff.before.nodes.count
    let beforeTokens = offsets.indices.map { stamps.token(for: beforeNodes[$0], offset: offsets[$0], count: count) }
    let afterTokens = offsets.indices.map { stamps.token(for: afterNodes[$0], offset: offsets[$0], count: count) }
    var slots: [Int32] = []
    slots.reserveCapacity(affected.count * offsets.count)
    for (slot, index) in affected {
      let instance = instances[Int(index)]
      guard slot >= 0, instance.kind == name else { return nil }
      let base = Int(slot) - (count - 1)
      for (inner, offset) in offsets.enumerated() {
        let guess = base + offset
        // The node as the old template stamped it into this instance: known from its token
        // (`StoreStamps`: the instance node at `slot` is this instance's), or compared in place.
        guard
          stamps.token(at: guess) == beforeTokens[inner]
            || holdsNode(at: guess, stampedFrom: beforeNodes, inner, in: instance.id)
        else { return nil }
        slots.append(Int32(guess))
      }
    }
    let ids = affected.map { instances[Int($0.index)].id }
    let step = InlinedReplacement(
      slots: slots, before: SubgraphReplacement(name: name, instanceIDs: ids, innerNodes: beforeNodes),
      after: SubgraphReplacement(name: name, instanceIDs: ids, innerNodes: afterNodes),
      beforeTokens: beforeTokens, afterTokens: afterTokens)
    return (step, payloads)
  }

}
