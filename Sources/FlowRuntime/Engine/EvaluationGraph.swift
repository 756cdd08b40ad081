import FlowGraph

/// The engine's dense picture of the graph: what the scheduler reads on its hot path.
///
/// Nodes are dense indices that never move while the graph lives; a removed node stays as an
/// isolated tombstone (flag `removed`). What a pass touches lives in `UnsafeGraphStorage`: one
/// 48-byte `NodeRecord` per node, the input sources and successors as flat runs (CSR), and
/// value `Slot`s (8-byte payload, tag and owner in parallel columns) — one per output, plus one per *unconnected* input holding the value
/// that input takes (a connected input reads its source's output slot directly, so gathering
/// an input is the same two loads either way). Numbers, integers, bools and nulls sit unboxed
/// in their slots; other values in `boxed`. What an edit or a report needs — ids, port names,
/// the evaluator, the values inputs take while unconnected — is in `configurations`, shared by
/// all the nodes of a static kind without params.
///
/// Invariants (checked by `_checkInvariants()`): a slot's `owner` is the node whose output it
/// is, or -1 for a constant; each input reads an output slot of another node or a constant slot
/// no other input reads; `successors` of `u` hold `v` once per edge `u → v`, and that edge is an
/// input of `v` reading one of `u`'s output slots; `order` is a topological order of the edges.
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
    /// A node with an output typed `table` or `any`: the only nodes whose tables a pass
    /// releases (`GraphEvaluator+Release.swift`).
    static let tables = Flags(rawValue: 128)
    // 32 is `readsDropped`, the table budget's hint (`GraphEvaluator+Eviction.swift`).
    /// A node with lazy inputs (`LazyNodeEvaluator`): evaluated in two steps.
    static let lazy = Flags(rawValue: 64)
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
      for input in instance.inputs where input.isLazy {
        flags.insert(.lazy)
        break
      }
      for output in instance.outputs where output.type == .table || output.type == .any {
        flags.insert(.tables)
        break
      }
      return flags
    }
  }

  /// How a node is configured: shared by the nodes of a static kind without params.
  struct Configuration {
    var evaluator: any NodeEvaluator
    var scalar: ScalarEvaluation?
    var inputNames: [String]
    var outputNames: [String]
    var inputTypes: [PortType]
    /// The value each input takes while unconnected.
    var unconnected: [Value]
    /// The kind name for a kind's shared configuration, `groupKey` for one a definition edit
    /// shares by reference among its nodes (counted in `configurationUsers`), `nil` for one
    /// node's own (which only that node writes in place).
    var sharedKey: String?
    /// Which inputs are lazy, for a node with lazy inputs; `nil` when none is.
    var lazyPorts: [Bool]?

    init(_ configured: ConfiguredNode) {
      evaluator = configured.instance.evaluator
      scalar = configured.instance.scalarEvaluation
      inputNames = configured.inputNames
      outputNames = configured.outputNames
      inputTypes = configured.inputTypes
      unconnected = configured.unconnectedInputs
      sharedKey = configured.sharedKey
      let inputs = configured.instance.inputs
      lazyPorts = inputs.contains(where: \.isLazy) ? inputs.map(\.isLazy) : nil
    }
  }

  private(set) var storage = UnsafeGraphStorage()
  /// Node ids by dense index, and the index of each present id (`indexByID[id]`).
  var indexByID = NodeIDTable()
  var ids: [String] { indexByID.ids }
  var configurations: [Configuration] = []
  /// `configurations[c].scalar`, unretained: what the typed path reads per node (the
  /// configuration keeps it alive; see `UnsafeGraphEvaluator+Scalar.swift`).
  var scalarFunctions: [Unmanaged<ScalarEvaluation>?] = []
  var sharedConfigurations: [String: UInt32] = [:]
  /// By configuration: how many nodes use it where it is a group's (`groupKey`: a definition
  /// edit's changed inner node, one configuration for all instances, freed with its last
  /// user); 0 for a node's own and a kind's.
  var configurationUsers: [UInt32] = []
  var freeConfigurations: [UInt32] = []
  /// Room in each node's successor run (its count is in the record); cold, edits only.
  var successorCapacity: [UInt32] = []
  var freeSlots: [Int32] = []
  var boxed: [Value] = []
  var freeBoxed: [UInt64] = []
  var order = TopologicalOrder()
  /// Nodes whose flags include `.expensive` (live ones), to pick the serial or concurrent pass.
  var expensiveCount = 0
  /// Nodes whose flags include `.lazy`: while there are none, passes take no lazy step.
  var lazyCount = 0
  /// Bumped by every edit of the graph's shape (nodes, edges, configurations): what the lazy
  /// pass's cached eagerly needed set depends on (`LazyTable.shapeVersion`).
  var shapeVersion: UInt64 = 0
  /// How many nodes are removed (`Flags.removed`; a removed index is never reused).
  var removedCount = 0

  var nodeCount: Int { ids.count }

  /// Builds the graph of a validated document.
  ///
  /// - Complexity: O(*n* + *m*); storage is allocated once, at its exact size.
  init(_ graph: ResolvedGraph, configured: [ConfiguredNode]) {
    let count = graph.nodeCount
    var successorCounts = [UInt32](repeating: 0, count: count)
    for edge in graph.edges { successorCounts[Int(edge.source)] += 1 }
    var inputTotal = 0, outputTotal = 0
    for configuration in configured {
      inputTotal += configuration.instance.inputs.count
      outputTotal += configuration.instance.outputs.count
    }
    storage.records.reserve(count)
    storage.inputSources.reserve(inputTotal)
    storage.successors.reserve(graph.edges.count)
    storage.slots.reserve(outputTotal + inputTotal - graph.edges.count)
    successorCapacity.reserveCapacity(count)
    var successorStart: UInt32 = 0
    for (index, configuration) in configured.enumerated() {
      _ = appendRecord(
        id: nil, configuration, successorStart: successorStart, successorCapacity: successorCounts[index],
        constants: false)
      successorStart += successorCounts[index]
    }
    storage.successors.append(repeating: -1, count: graph.edges.count)
    // The validated graph's id column becomes the table's (shared, not copied).
    indexByID = NodeIDTable(graph.nodeIDs)
    for edge in graph.edges {
      let input = Int(storage.records[Int(edge.target)].inputStart) + Int(edge.targetPort)
      storage.inputSources[input] = Int32(storage.records[Int(edge.source)].outputStart) + edge.sourcePort
      appendSuccessor(edge.target, of: edge.source)
    }
    for node in 0..<count {
      let record = storage.records[node]
      for port in 0..<Int(record.inputCount) where storage.inputSources[Int(record.inputStart) + port] < 0 {
        storage.inputSources[Int(record.inputStart) + port] =
          allocateConstant(configurations[Int(record.configuration)].unconnected[port])
      }
    }
    order = TopologicalOrder(validOrder: graph.topologicalOrder)
  }

  /// Copies the storage if another graph shares it: call before any write to it.
  @inline(__always)
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  // MARK: Reading

  @inline(__always) func record(_ node: Int32) -> NodeRecord { storage.records[Int(node)] }
  func flags(of node: Int32) -> Flags { Flags(rawValue: storage.records[Int(node)].flags) }
  func inputCount(of node: Int32) -> Int32 { Int32(storage.records[Int(node)].inputCount) }
  func outputCount(of node: Int32) -> Int32 { Int32(storage.records[Int(node)].outputCount) }
  func configuration(of node: Int32) -> Configuration { configurations[Int(storage.records[Int(node)].configuration)] }
  func evaluator(of node: Int32) -> any NodeEvaluator {
    configurations[Int(storage.records[Int(node)].configuration)].evaluator
  }
  func inputNames(of node: Int32) -> [String] { configuration(of: node).inputNames }
  func outputNames(of node: Int32) -> [String] { configuration(of: node).outputNames }
  func inputTypes(of node: Int32) -> [PortType] { configuration(of: node).inputTypes }

  /// The slot input `port` of `node` reads.
  func inputSlot(of node: Int32, input port: Int32) -> Int32 {
    storage.inputSources[Int(storage.records[Int(node)].inputStart) + Int(port)]
  }

  /// The node feeding input `port` of `node`, or -1.
  func sourceNode(of node: Int32, input port: Int32) -> Int32 {
    storage.slots[Int(inputSlot(of: node, input: port))].owner
  }

  /// The output port of the node feeding input `port` of `node` (meaningful when connected).
  func sourcePort(of node: Int32, input port: Int32) -> Int32 {
    let slot = inputSlot(of: node, input: port)
    let owner = storage.slots[Int(slot)].owner
    return owner < 0 ? -1 : slot - Int32(storage.records[Int(owner)].outputStart)
  }

  /// The nodes `node` feeds, once per edge (valid until the next edit).
  func successors(of node: Int32) -> SuccessorRun {
    let record = storage.records[Int(node)]
    return SuccessorRun(
      column: storage.successors, start: Int(record.successorStart), count: Int(record.successorCount))
  }

  /// The value in `slot`.
  func value(inSlot slot: Int) -> Value {
    let cell = storage.slots[slot]
    return cell.tag == SlotTag.boxed ? boxed[Int(cell.bits)] : cell.scalarValue
  }

  /// The current outputs of `node`, in port order.
  func outputValues(of node: Int32) -> [Value] {
    let record = storage.records[Int(node)]
    return (0..<Int(record.outputCount)).map { value(inSlot: Int(record.outputStart) + $0) }
  }

  /// The outputs of `node` by port name.
  func outputs(of node: Int32) -> [String: Value] {
    let record = storage.records[Int(node)]
    var result: [String: Value] = [:]
    for (port, name) in outputNames(of: node).enumerated() {
      result[name] = value(inSlot: Int(record.outputStart) + port)
    }
    return result
  }

  // MARK: Writing values

  /// Puts `value` into `slot`; returns whether it changed (`Value.isIdentical` decides).
  /// The caller has made the storage unique (a pass does at its start).
  @inline(__always)
  mutating func store(_ value: Value, inSlot slot: Int) -> Bool {
    let old = storage.slots[slot]
    if let new = Slot.scalar(value, owner: old.owner) {
      if old.tag != SlotTag.boxed && old.holdsSameScalar(tag: new.tag, bits: new.bits) { return false }
      if old.tag == SlotTag.boxed { releaseBoxed(old.bits) }
      storage.slots[slot] = new
      return true
    }
    if old.tag == SlotTag.boxed {
      if boxed[Int(old.bits)].isIdentical(to: value) { return false }
      boxed[Int(old.bits)] = value
      return true
    }
    storage.slots[slot] = Slot(bits: allocateBoxed(value), owner: old.owner, tag: SlotTag.boxed)
    return true
  }

  mutating func allocateBoxed(_ value: Value) -> UInt64 {
    if let index = freeBoxed.popLast() {
      boxed[Int(index)] = value
      return index
    }
    boxed.append(value)
    return UInt64(boxed.count - 1)
  }

  mutating func releaseBoxed(_ index: UInt64) {
    boxed[Int(index)] = .null
    freeBoxed.append(index)
  }
}

extension EvaluationGraph: TopologicalAdjacency {
  func forEachSuccessor(of node: Int32, _ body: (Int32) -> Void) {
    for successor in successors(of: node) { body(successor) }
  }

  func forEachPredecessor(of node: Int32, _ body: (Int32) -> Void) {
    for port in 0..<inputCount(of: node) {
      let source = sourceNode(of: node, input: port)
      if source >= 0 { body(source) }
    }
  }
}

/// The successors of one node: a view of its run in the flat successor column.
struct SuccessorRun: RandomAccessCollection {
  let column: UnsafeColumn<Int32>
  let start: Int
  let count: Int
  var startIndex: Int { 0 }
  var endIndex: Int { count }
  @inline(__always) subscript(position: Int) -> Int32 { column[start + position] }
}
