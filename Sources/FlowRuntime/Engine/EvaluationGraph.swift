import FlowGraph

/// The engine's dense picture of the graph: what the scheduler reads on its hot path.
///
/// Nodes are dense indices that never move while the graph lives; a removed node stays as an
/// isolated tombstone (flag `removed`). Each node owns a contiguous run of value *slots*:
/// first one per output port, then one per input port holding the value that input takes
/// while unconnected. `inputSource[inputBase[n] + k]` is the slot input `k` of node `n` reads:
/// its own constant slot, or the output slot of the node feeding it. So gathering inputs is the
/// same two loads whether an input is connected or not.
///
/// Invariants (checked by `_checkInvariants()`): `slotOwner[s]` is the node whose output `s`
/// is, or -1 for constant slots; `successors[u]` holds `v` once per edge `u → v`, and that
/// edge is an `inputSource` entry of `v` pointing into `u`'s output slots; `order` is a
/// topological order of the live edges.
struct EvaluationGraph {
  struct Flags: OptionSet {
    var rawValue: UInt8
    /// Containers have no ports and never run.
    static let container = Flags(rawValue: 1)
    static let expensive = Flags(rawValue: 2)
    static let removed = Flags(rawValue: 4)
    /// A live node whose state advances in passes.
    static let stateful = Flags(rawValue: 8)
    /// A live node that emits on its own.
    static let source = Flags(rawValue: 16)
    /// Nodes that never run: containers and removed nodes.
    static let inert: Flags = [.container, .removed]
    static let live: Flags = [.stateful, .source]

    /// The flags of a node configured as `instance`.
    static func of(_ instance: NodeInstance) -> Flags {
      var flags: Flags = []
      if instance.isContainer { flags.insert(.container) }
      if instance.cost == .expensive { flags.insert(.expensive) }
      switch instance.live?.shape {
      case .stateful?: flags.insert(.stateful)
      case .source?: flags.insert(.source)
      case nil: break
      }
      return flags
    }
  }

  var ids: [String] = []
  var indexByID: [String: Int32] = [:]
  var evaluators: [any NodeEvaluator] = []
  var flags: [Flags] = []
  var inputBase: [Int32] = []
  var inputCount: [Int32] = []
  var slotBase: [Int32] = []
  var outputCount: [Int32] = []
  var inputSource: [Int32] = []
  var slotOwner: [Int32] = []
  var values: [Value] = []
  var successors: [[Int32]] = []
  var order = TopologicalOrder()
  /// Port names per node (shared arrays for nodes of one kind), for results and edits by name.
  var outputNames: [[String]] = []
  var inputNames: [[String]] = []
  var inputTypes: [[PortType]] = []
  /// Nodes whose flags include `.expensive` (live ones), to pick the serial or concurrent pass.
  var expensiveCount = 0

  var nodeCount: Int { ids.count }

  /// Builds the graph of a validated document.
  ///
  /// - Complexity: O(*n* + *m*), plus configuring each node once.
  init(_ graph: ResolvedGraph, configured: [ConfiguredNode]) {
    let count = graph.nodeCount
    ids.reserveCapacity(count)
    evaluators.reserveCapacity(count)
    successors.reserveCapacity(count)
    for (node, configuration) in zip(graph.document.nodes, configured) {
      _ = appendNode(id: node.id, configuration, appendToOrder: false, indexed: false)
    }
    indexByID = graph.indexByID
    order = TopologicalOrder(validOrder: graph.topologicalOrder)
    for edge in graph.edges {
      connect(source: edge.source, port: edge.sourcePort, target: edge.target, port: edge.targetPort)
    }
  }

  /// Adds a node after all others (its index is the old `nodeCount`).
  mutating func appendNode(id: String, _ configured: ConfiguredNode, appendToOrder: Bool = true, indexed: Bool = true) -> Int32 {
    let node = Int32(ids.count)
    let instance = configured.instance
    ids.append(id)
    if indexed { indexByID[id] = node }
    evaluators.append(instance.evaluator)
    let nodeFlags = Flags.of(instance)
    if nodeFlags.contains(.expensive) { expensiveCount += 1 }
    flags.append(nodeFlags)
    inputBase.append(Int32(inputSource.count))
    inputCount.append(Int32(instance.inputs.count))
    slotBase.append(Int32(values.count))
    outputCount.append(Int32(instance.outputs.count))
    outputNames.append(configured.outputNames)
    inputNames.append(configured.inputNames)
    inputTypes.append(configured.inputTypes)
    let outputSlots = values.count
    for _ in instance.outputs {
      values.append(.number(0))
      slotOwner.append(node)
    }
    for (port, value) in configured.unconnectedInputs.enumerated() {
      inputSource.append(Int32(outputSlots + instance.outputs.count + port))
      values.append(value)
      slotOwner.append(-1)
    }
    successors.append([])
    if appendToOrder { order.appendNode() }
    return node
  }

  /// Gives `node` a new configuration. Its edges must be disconnected first; when the port
  /// counts differ, it gets a fresh run of slots (the old run is left unused).
  mutating func reconfigure(_ node: Int32, _ configured: ConfiguredNode) {
    let index = Int(node)
    let instance = configured.instance
    evaluators[index] = instance.evaluator
    if flags[index].contains(.expensive) { expensiveCount -= 1 }
    let nodeFlags = Flags.of(instance)
    if nodeFlags.contains(.expensive) { expensiveCount += 1 }
    flags[index] = nodeFlags
    outputNames[index] = configured.outputNames
    inputNames[index] = configured.inputNames
    inputTypes[index] = configured.inputTypes
    if Int(outputCount[index]) != instance.outputs.count || Int(inputCount[index]) != instance.inputs.count {
      for slot in Int(slotBase[index])..<Int(slotBase[index] + outputCount[index]) { slotOwner[slot] = -1 }
      inputBase[index] = Int32(inputSource.count)
      inputCount[index] = Int32(instance.inputs.count)
      slotBase[index] = Int32(values.count)
      outputCount[index] = Int32(instance.outputs.count)
      for _ in instance.outputs {
        values.append(.number(0))
        slotOwner.append(node)
      }
      for (port, value) in configured.unconnectedInputs.enumerated() {
        inputSource.append(Int32(Int(slotBase[index]) + instance.outputs.count + port))
        values.append(value)
        slotOwner.append(-1)
      }
    } else {
      for (port, value) in configured.unconnectedInputs.enumerated() {
        values[Int(constantSlot(of: node, input: Int32(port)))] = value
      }
    }
  }

  /// Feeds input `targetPort` of `target` from output `sourcePort` of `source`. The caller has
  /// checked the edge (types, single input, no cycle) and updated `order` for it.
  mutating func connect(source: Int32, port sourcePort: Int32, target: Int32, port targetPort: Int32) {
    inputSource[Int(inputBase[Int(target)] + targetPort)] = slotBase[Int(source)] + sourcePort
    successors[Int(source)].append(target)
  }

  /// Returns input `port` of `target` to its constant slot.
  mutating func disconnect(target: Int32, port: Int32) {
    let input = Int(inputBase[Int(target)] + port)
    let owner = slotOwner[Int(inputSource[input])]
    guard owner >= 0 else { return }
    inputSource[input] = constantSlot(of: target, input: port)
    if let position = successors[Int(owner)].firstIndex(of: target) {
      successors[Int(owner)].swapAt(position, successors[Int(owner)].count - 1)
      successors[Int(owner)].removeLast()
    }
  }

  func constantSlot(of node: Int32, input port: Int32) -> Int32 {
    slotBase[Int(node)] + outputCount[Int(node)] + port
  }

  /// The node feeding input `port` of `node`, or -1.
  func sourceNode(of node: Int32, input port: Int32) -> Int32 {
    slotOwner[Int(inputSource[Int(inputBase[Int(node)] + port)])]
  }

  /// The outputs of `node` by port name.
  func outputs(of node: Int32) -> [String: Value] {
    let base = Int(slotBase[Int(node)])
    var result: [String: Value] = [:]
    for (port, name) in outputNames[Int(node)].enumerated() { result[name] = values[base + port] }
    return result
  }

  /// Traps if an invariant in the type's header does not hold. Only with `FLOW_INTERNAL_CHECKS`.
  func _checkInvariants() {
    #if FLOW_INTERNAL_CHECKS
    var edgeCount = [Int32: Int]()
    for node in 0..<Int32(nodeCount) where !flags[Int(node)].contains(.removed) {
      for port in 0..<inputCount[Int(node)] {
        let source = sourceNode(of: node, input: port)
        if source >= 0 { edgeCount[source, default: 0] += 1 }
        else {
          precondition(inputSource[Int(inputBase[Int(node)] + port)] == constantSlot(of: node, input: port),
                       "Internal inconsistency: input \(port) of node \(node) reads a foreign constant")
        }
      }
    }
    var edges: [(Int32, Int32)] = []
    for (source, targets) in successors.enumerated() {
      precondition(targets.count == edgeCount[Int32(source), default: 0],
                   "Internal inconsistency: successors of node \(source) disagree with the inputs fed by it")
      for target in targets { edges.append((Int32(source), target)) }
    }
    order._checkInvariants(edges: edges)
    #endif
  }
}

extension EvaluationGraph: TopologicalAdjacency {
  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void) {
    for successor in successors[Int(node)] { body(successor) }
  }

  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void) {
    for port in 0..<inputCount[Int(node)] {
      let source = sourceNode(of: node, input: port)
      if source >= 0 { body(source) }
    }
  }
}
