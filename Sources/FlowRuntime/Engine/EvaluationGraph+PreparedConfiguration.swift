import FlowGraph

// Reconfiguring many nodes alike (a definition edit's changed inner node in every instance):
// the configuration is built once and shared by reference (one group configuration, counted in
// `configurationUsers`), each node's record pointing at it.

extension EvaluationGraph {
  /// One configuration made ready for `reconfigureKeepingEdges(_:_:)` on many nodes (a
  /// definition edit's changed inner node, alike in every instance): the `Configuration`, flags
  /// and typed shape built once, each node then only copies them. A class, so that handing
  /// it to each node is one retain, not a copy of its fields.
  final class PreparedConfiguration {
    let configured: ConfiguredNode
    let configuration: Configuration
    let flags: Flags
    let shape: UInt8
    /// The group configuration the nodes share, once the first took it (in one graph).
    var group: UInt32?

    init(_ configured: ConfiguredNode) {
      self.configured = configured
      configuration = Configuration(configured)
      flags = Flags.of(configured.instance)
      let instance = configured.instance
      shape = ScalarShape.of(instance.scalarEvaluation, inputs: instance.inputs.count, outputs: instance.outputs.count)
    }
  }

  /// `Configuration.sharedKey` of a group configuration (no kind has this name).
  static let groupKey = "\u{0}group"

  /// Whether `node`'s current configuration has `prepared`'s port names (read in place).
  func hasPorts(of prepared: PreparedConfiguration, _ node: Int32) -> Bool {
    let current = Int(storage.records[Int(node)].configuration)
    return configurations[current].inputNames == prepared.configuration.inputNames
      && configurations[current].outputNames == prepared.configuration.outputNames
  }

  /// `reconfigureKeepingEdges(_:_:)` with a prepared configuration: no `Configuration` made or
  /// copied per node. A node's own configuration gives way to the group's (allocated by the
  /// first node, marked `groupKey` so that no node writes it in place), which the node then
  /// shares by reference; a kind's shared one is interned as usual.
  ///
  /// - Precondition: `hasPorts(of:_:)`.
  mutating func reconfigureKeepingEdges(_ node: Int32, _ prepared: PreparedConfiguration) {
    makeUnique()
    let old = storage.records[Int(node)]
    shapeVersion &+= 1
    if Flags(rawValue: old.flags).contains(.expensive) { expensiveCount -= 1 }
    if prepared.flags.contains(.expensive) { expensiveCount += 1 }
    if Flags(rawValue: old.flags).contains(.lazy) { lazyCount -= 1 }
    if prepared.flags.contains(.lazy) { lazyCount += 1 }
    storage.records[Int(node)].flags = prepared.flags.rawValue
    storage.records[Int(node)].shape = prepared.shape
    if prepared.configuration.sharedKey == nil {
      let group: UInt32
      if let known = prepared.group {
        group = known
      } else {
        var shared = prepared.configuration
        shared.sharedKey = Self.groupKey
        group = allocateConfiguration(shared)
        prepared.group = group
      }
      if old.configuration != group {
        configurationUsers[Int(group)] += 1
        releaseConfiguration(old.configuration)
        storage.records[Int(node)].configuration = group
      }
    } else {
      releaseConfiguration(old.configuration)
      storage.records[Int(node)].configuration = intern(prepared.configured)
    }
    for (port, value) in prepared.configuration.unconnected.enumerated() {
      let input = Int(old.inputStart) + port
      let slot = storage.inputSources[input]
      guard storage.slots[Int(slot)].owner < 0 else { continue }
      freeSlot(slot)
      storage.inputSources[input] = allocateConstant(value)
    }
  }
}
