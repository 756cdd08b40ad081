import FlowGraph

extension EvaluationGraph {
  /// Adds a node after all others (its index is the old `nodeCount`).
  mutating func appendNode(id: String, _ configured: ConfiguredNode, appendToOrder: Bool = true, indexed: Bool = true)
    -> Int32
  {
    makeUnique()
    let node = appendRecord(
      id: id, configured, successorStart: UInt32(storage.successors.count), successorCapacity: 0,
      constants: true)
    if indexed { indexByID[id] = node }
    if appendToOrder { order.appendNode() }
    return node
  }

  /// Appends the record, output slots and input sources of a node (constant slots for its
  /// inputs if `constants`, else -1 placeholders the caller fills), and its id unless `nil`
  /// (the caller then sets every id at once).
  mutating func appendRecord(
    id: String?, _ configured: ConfiguredNode, successorStart: UInt32, successorCapacity capacity: UInt32,
    constants: Bool
  ) -> Int32 {
    let node = Int32(storage.records.count)
    shapeVersion &+= 1
    let instance = configured.instance
    if let id { indexByID.append(id) }
    let nodeFlags = Flags.of(instance)
    if nodeFlags.contains(.expensive) { expensiveCount += 1 }
    if nodeFlags.contains(.lazy) { lazyCount += 1 }
    let configuration = intern(configured)
    let record = NodeRecord(
      flags: nodeFlags.rawValue,
      shape: ScalarShape.of(
        instance.scalarEvaluation, inputs: instance.inputs.count,
        outputs: instance.outputs.count),
      inputStart: UInt32(storage.inputSources.count), inputCount: UInt32(instance.inputs.count),
      outputStart: UInt32(storage.slots.count), outputCount: UInt32(instance.outputs.count),
      successorStart: successorStart, configuration: configuration)
    storage.slots.append(
      repeating: Slot(bits: 0.0.bitPattern, owner: node, tag: SlotTag.number), count: instance.outputs.count)
    storage.records.append(record)
    successorCapacity.append(capacity)
    for value in configured.unconnectedInputs {
      storage.inputSources.append(constants ? allocateConstant(value) : -1)
    }
    return node
  }

  /// Gives `node` a new configuration. Its edges must be disconnected first; when the port
  /// counts differ, it gets fresh output slots and input sources (the old ones are freed).
  mutating func reconfigure(_ node: Int32, _ configured: ConfiguredNode) {
    let instance = configured.instance
    let old = replaceConfiguration(of: node, with: configured)
    for port in 0..<Int(old.inputCount) {
      let slot = storage.inputSources[Int(old.inputStart) + port]
      precondition(
        storage.slots[Int(slot)].owner < 0, "Internal inconsistency: reconfiguring a node with a connected input")
      freeSlot(slot)
    }
    if Int(old.outputCount) != instance.outputs.count || Int(old.inputCount) != instance.inputs.count {
      for slot in Int(old.outputStart)..<Int(old.outputStart + old.outputCount) { freeSlot(Int32(slot)) }
      let outputStart = UInt32(storage.slots.count)
      storage.slots.append(
        repeating: Slot(bits: 0.0.bitPattern, owner: node, tag: SlotTag.number), count: instance.outputs.count)
      let inputStart = UInt32(storage.inputSources.count)
      storage.inputSources.append(repeating: -1, count: instance.inputs.count)
      storage.records[Int(node)].outputStart = outputStart
      storage.records[Int(node)].outputCount = UInt32(instance.outputs.count)
      storage.records[Int(node)].inputStart = inputStart
      storage.records[Int(node)].inputCount = UInt32(instance.inputs.count)
    }
    let record = storage.records[Int(node)]
    for (port, value) in configured.unconnectedInputs.enumerated() {
      storage.inputSources[Int(record.inputStart) + port] = allocateConstant(value)
    }
  }

  /// Gives `node` a configuration with the same input and output ports (names and order) as its
  /// current one, keeping its edges: connected inputs stay connected, unconnected ones take the
  /// new configuration's values, outputs keep their slots (and values until the node reruns).
  mutating func reconfigureKeepingEdges(_ node: Int32, _ configured: ConfiguredNode) {
    let instance = configured.instance
    precondition(
      Int(storage.records[Int(node)].inputCount) == instance.inputs.count
        && Int(storage.records[Int(node)].outputCount) == instance.outputs.count,
      "Internal inconsistency: reconfiguring in place with other ports")
    let old = replaceConfiguration(of: node, with: configured)
    for (port, value) in configured.unconnectedInputs.enumerated() {
      let input = Int(old.inputStart) + port
      let slot = storage.inputSources[input]
      guard storage.slots[Int(slot)].owner < 0 else { continue }
      freeSlot(slot)
      storage.inputSources[input] = allocateConstant(value)
    }
  }

  /// Sets `node`'s flags, typed shape and configuration from `configured`; returns its record
  /// as it was.
  private mutating func replaceConfiguration(of node: Int32, with configured: ConfiguredNode) -> NodeRecord {
    makeUnique()
    shapeVersion &+= 1
    let instance = configured.instance
    let old = storage.records[Int(node)]
    if Flags(rawValue: old.flags).contains(.expensive) { expensiveCount -= 1 }
    if Flags(rawValue: old.flags).contains(.lazy) { lazyCount -= 1 }
    let nodeFlags = Flags.of(instance)
    if nodeFlags.contains(.expensive) { expensiveCount += 1 }
    if nodeFlags.contains(.lazy) { lazyCount += 1 }
    storage.records[Int(node)].flags = nodeFlags.rawValue
    storage.records[Int(node)].shape = ScalarShape.of(
      instance.scalarEvaluation, inputs: instance.inputs.count, outputs: instance.outputs.count)
    if configured.sharedKey == nil && configurations[Int(old.configuration)].sharedKey == nil {
      configurations[Int(old.configuration)] = Configuration(configured)
      scalarFunctions[Int(old.configuration)] = ScalarEvaluation.unretained(configured.instance.scalarEvaluation)
    } else {
      releaseConfiguration(old.configuration)
      storage.records[Int(node)].configuration = intern(configured)
    }
    return old
  }

  /// Feeds input `targetPort` of `target` from output `sourcePort` of `source`. The caller has
  /// checked the edge (types, single input, no cycle) and updated `order` for it.
  mutating func connect(source: Int32, port sourcePort: Int32, target: Int32, port targetPort: Int32) {
    makeUnique()
    shapeVersion &+= 1
    let input = Int(storage.records[Int(target)].inputStart) + Int(targetPort)
    let previous = storage.inputSources[input]
    precondition(
      storage.slots[Int(previous)].owner < 0, "Internal inconsistency: connecting an input that is connected")
    freeSlot(previous)
    storage.inputSources[input] = Int32(storage.records[Int(source)].outputStart) + sourcePort
    appendSuccessor(target, of: source)
  }

  /// Returns input `port` of `target` to a constant slot holding its unconnected value.
  mutating func disconnect(target: Int32, port: Int32) {
    let input = Int(storage.records[Int(target)].inputStart) + Int(port)
    let owner = storage.slots[Int(storage.inputSources[input])].owner
    guard owner >= 0 else { return }
    makeUnique()
    shapeVersion &+= 1
    storage.inputSources[input] = allocateConstant(configuration(of: target).unconnected[Int(port)])
    let record = storage.records[Int(owner)]
    let start = Int(record.successorStart), last = start + Int(record.successorCount) - 1
    if let position = (start...last).first(where: { storage.successors[$0] == target }) {
      storage.successors[position] = storage.successors[last]
      storage.records[Int(owner)].successorCount -= 1
    }
  }

  /// Frees the slots and own configuration of a node being removed (its edges are gone).
  mutating func retire(_ node: Int32) {
    makeUnique()
    shapeVersion &+= 1
    let record = storage.records[Int(node)]
    for port in 0..<Int(record.inputCount) { freeSlot(storage.inputSources[Int(record.inputStart) + port]) }
    for slot in Int(record.outputStart)..<Int(record.outputStart + record.outputCount) { freeSlot(Int32(slot)) }
    storage.records[Int(node)].inputCount = 0
    storage.records[Int(node)].outputCount = 0
    storage.records[Int(node)].shape = ScalarShape.none
    if Flags(rawValue: record.flags).contains(.expensive) { expensiveCount -= 1 }
    if Flags(rawValue: record.flags).contains(.lazy) { lazyCount -= 1 }
    if !Flags(rawValue: record.flags).contains(.removed) { removedCount += 1 }
    storage.records[Int(node)].flags = Flags.removed.rawValue
  }

  /// Sets the value input `port` of `node` takes while unconnected. Returns whether the input
  /// is unconnected and its value changed (the node must then run again).
  mutating func setUnconnected(_ node: Int32, input port: Int32, to value: Value) -> Bool {
    makeUnique()
    configurations[ownConfiguration(of: node)].unconnected[Int(port)] = value
    let slot = inputSlot(of: node, input: port)
    guard storage.slots[Int(slot)].owner < 0 else { return false }
    return store(value, inSlot: Int(slot))
  }

  /// Makes `node`'s evaluator `wrap(evaluator)`, in a configuration of its own, with no scalar
  /// fast path (every run goes through the wrapper); its ports, values and edges stay.
  mutating func wrapEvaluator(of node: Int32, _ wrap: (any NodeEvaluator) -> any NodeEvaluator) {
    makeUnique()
    let index = ownConfiguration(of: node)
    configurations[index].evaluator = wrap(configurations[index].evaluator)
    configurations[index].scalar = nil
    scalarFunctions[index] = ScalarEvaluation.unretained(nil)
    storage.records[Int(node)].shape = ScalarShape.none
  }

  /// The index of `node`'s configuration, first copied into one of its own if it shared one
  /// (its kind's, or a definition edit's group's).
  private mutating func ownConfiguration(of node: Int32) -> Int {
    let index = Int(storage.records[Int(node)].configuration)
    guard configurations[index].sharedKey != nil else { return index }
    var own = configurations[index]
    own.sharedKey = nil
    let fresh = allocateConfiguration(own)
    releaseConfiguration(UInt32(index))  // one user less where it is a group's
    storage.records[Int(node)].configuration = fresh
    return Int(fresh)
  }

  // MARK: Slots, successors, configurations

  /// A constant slot holding `value` (a free one if any).
  mutating func allocateConstant(_ value: Value) -> Int32 {
    let slot: Int32
    if let free = freeSlots.popLast() {
      slot = free
      storage.slots[Int(slot)] = Slot(bits: 0, owner: -1, tag: SlotTag.null)
    } else {
      slot = Int32(storage.slots.count)
      storage.slots.append(Slot(bits: 0, owner: -1, tag: SlotTag.null))
    }
    _ = store(value, inSlot: Int(slot))
    return slot
  }

  mutating func freeSlot(_ slot: Int32) {
    let cell = storage.slots[Int(slot)]
    guard cell.tag != SlotTag.free else { return }
    if cell.tag == SlotTag.boxed { releaseBoxed(cell.bits) }
    storage.slots[Int(slot)] = Slot(bits: 0, owner: -1, tag: SlotTag.free)
    freeSlots.append(slot)
  }

  /// Records the edge `source → target` in `source`'s successor run, moving the run to the end
  /// with doubled room when it is full. The runs left behind are never reused: with doubling,
  /// they hold less than the live runs' room, so the column stays within twice that.
  mutating func appendSuccessor(_ target: Int32, of source: Int32) {
    var start = Int(storage.records[Int(source)].successorStart)
    let count = Int(storage.records[Int(source)].successorCount)
    let capacity = Int(successorCapacity[Int(source)])
    if count == capacity {
      let grown = max(4, capacity * 2)
      let moved = storage.successors.count
      storage.successors.append(repeating: -1, count: grown)
      for offset in 0..<count { storage.successors[moved + offset] = storage.successors[start + offset] }
      successorCapacity[Int(source)] = UInt32(grown)
      start = moved
      storage.records[Int(source)].successorStart = UInt32(moved)
    }
    storage.successors[start + count] = target
    storage.records[Int(source)].successorCount += 1
  }
}

extension EvaluationGraph {
  /// Traps if an invariant in the type's header (or `UnsafeGraphStorage`'s) does not hold.
  /// Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    let slotCount = storage.slots.count
    precondition(
      storage.records.count == nodeCount && successorCapacity.count == nodeCount,
      "Internal inconsistency: per-node columns differ in length")
    var readers = [Int32](repeating: 0, count: slotCount)
    var edgeCount = [Int32](repeating: 0, count: nodeCount)
    var edges: [(Int32, Int32)] = []
    for node in 0..<Int32(nodeCount) where !flags(of: node).contains(.removed) {
      let record = self.record(node)
      precondition(
        Int(record.inputStart + record.inputCount) <= storage.inputSources.count
          && Int(record.outputStart + record.outputCount) <= slotCount
          && record.successorCount <= successorCapacity[Int(node)]
          && Int(record.successorStart) + Int(successorCapacity[Int(node)]) <= storage.successors.count,
        "Internal inconsistency: node \(node)'s runs are out of bounds")
      precondition(
        Int(record.configuration) < configurations.count
          && configurations[Int(record.configuration)].unconnected.count == Int(record.inputCount),
        "Internal inconsistency: node \(node)'s configuration does not match its inputs")
      for slot in Int(record.outputStart)..<Int(record.outputStart + record.outputCount) {
        precondition(
          storage.slots[slot].owner == node && storage.slots[slot].tag != SlotTag.free,
          "Internal inconsistency: output slot \(slot) is not owned by node \(node)")
      }
      for port in 0..<Int32(record.inputCount) {
        let slot = Int(inputSlot(of: node, input: port))
        precondition(
          slot >= 0 && slot < slotCount && storage.slots[slot].tag != SlotTag.free,
          "Internal inconsistency: input \(port) of node \(node) reads a free or missing slot")
        let owner = storage.slots[slot].owner
        if owner >= 0 {
          edgeCount[Int(owner)] += 1
          edges.append((owner, node))
        } else {
          readers[slot] += 1
        }
      }
    }
    precondition(readers.allSatisfy { $0 <= 1 }, "Internal inconsistency: two inputs share a constant slot")
    var fed: [Int64: Int] = [:]
    for (source, target) in edges { fed[Int64(source) << 32 | Int64(target), default: 0] += 1 }
    for node in 0..<Int32(nodeCount) {
      precondition(
        Int32(record(node).successorCount) == edgeCount[Int(node)],
        "Internal inconsistency: successors of node \(node) disagree with the inputs fed by it")
      for successor in successors(of: node) { fed[Int64(node) << 32 | Int64(successor), default: 0] -= 1 }
    }
    precondition(fed.values.allSatisfy { $0 == 0 }, "Internal inconsistency: successor lists disagree with the edges")
    var boxedUsers = [Int32](repeating: 0, count: boxed.count)
    for slot in 0..<slotCount where storage.slots[slot].tag == SlotTag.boxed {
      precondition(
        Int(storage.slots[slot].bits) < boxed.count, "Internal inconsistency: slot \(slot) boxes out of range")
      boxedUsers[Int(storage.slots[slot].bits)] += 1
    }
    precondition(boxedUsers.allSatisfy { $0 <= 1 }, "Internal inconsistency: two slots share a boxed value")
    precondition(
      scalarFunctions.count == configurations.count
        && zip(scalarFunctions, configurations).allSatisfy {
          $0?.toOpaque() == ScalarEvaluation.unretained($1.scalar)?.toOpaque()
        },
      "Internal inconsistency: an unretained scalar function is not its configuration's")
    _checkConfigurationUsers()
    precondition(
      freeSlots.allSatisfy { storage.slots[Int($0)].tag == SlotTag.free },
      "Internal inconsistency: a slot on the free list is in use")
    order._checkInvariants(edges: edges)
    #endif
  }
}
