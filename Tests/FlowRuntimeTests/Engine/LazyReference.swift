import FlowGraph
@testable import FlowRuntime
import FlowTestSupport

/// A random calculator graph with `if`, `switch` and `fallback`, and a reference evaluator for
/// it: lazy recursive evaluation from the roots (the observed nodes, or the sinks), memoized
/// per pass, with a *dirty* flag per node standing for "must run when next visited".
///
/// A node visited in a pass runs iff it is dirty; dirty comes from an edit, or from a change of
/// a node it reads (an eager input, or a lazy input it last asked for). A lazy node visits its
/// eager inputs, asks which lazy inputs it needs (round after round, as the engine does), and
/// visits those. The engine must agree on values, failures and the set of nodes that ran.
struct LazyReference {
  enum Kind: Equatable {
    case knob, add, multiply, divide, choose, select, fallback
  }

  struct Node {
    var id: String
    var kind: Kind
    /// One per input port: the source node, or nil with the constant.
    var sources: [Int?]
    var constants: [Value]
    var lazy: [Bool]
  }

  var nodes: [Node] = []
  /// Successors: (target, port) per edge.
  var successors: [[(node: Int, port: Int)]] = []
  var roots: [Int] = []

  // The state the reference keeps across passes.
  var output: [Value] = []
  var failure: [(root: Int, message: String?)?] = []
  var dirty: [Bool] = []
  var needs: [[Bool]] = []
  var everRan: [Bool] = []

  /// A random graph of `count` nodes; a third of the first ones are knobs (edited later).
  init(random: inout SeededRandom, count: Int) {
    for index in 0..<count {
      let roll = index < 3 ? 0 : Int(random.next() % 12)
      let kind: Kind =
        switch roll {
        case 0, 1, 2: .knob
        case 3: .add
        case 4: .multiply
        case 5, 6: .divide
        case 7, 8: .choose
        case 9: .select
        case 10, 11: .fallback
        default: .add
        }
      var node = Node(id: "n\(index)", kind: kind, sources: [], constants: [], lazy: [])
      func pick() -> Int { Int(random.next() % UInt64(index)) }
      func knobValue() -> Value { .number(Double(Int(random.next() % 5) - 1)) }
      switch kind {
      case .knob:
        node.sources = [nil, nil]
        node.constants = [knobValue(), knobValue()]
        node.lazy = [false, false]
      case .add, .multiply, .divide:
        node.sources = [pick(), random.next() % 4 == 0 ? nil : pick()]
        node.constants = [.number(kind == .add ? 0 : 1), knobValue()]
        node.lazy = [false, false]
      case .choose:
        node.sources = [pick(), pick(), pick()]
        node.constants = [.null, .null, .null]
        node.lazy = [false, true, true]
      case .select:
        node.sources = [pick(), pick(), pick(), pick(), pick()]
        node.constants = Array(repeating: .null, count: 5)
        node.lazy = [false, true, true, true, true]
      case .fallback:
        node.sources = [pick(), pick()]
        node.constants = [.null, .null]
        node.lazy = [true, true]
      }
      nodes.append(node)
    }
    successors = Array(repeating: [], count: count)
    for (target, node) in nodes.enumerated() {
      for (port, source) in node.sources.enumerated() {
        if let source { successors[source].append((target, port)) }
      }
    }
    output = Array(repeating: .number(0), count: count)
    failure = Array(repeating: nil, count: count)
    dirty = Array(repeating: true, count: count)
    needs = nodes.map { Array(repeating: false, count: $0.sources.count) }
    everRan = Array(repeating: false, count: count)
  }

  /// The same graph as a document of standard kinds.
  var document: FlowDocument {
    var document = FlowDocument()
    let names: [Kind: (kind: String, ports: [String], output: String)] = [
      .knob: ("add", ["a", "b"], "result"), .add: ("add", ["a", "b"], "result"),
      .multiply: ("multiply", ["a", "b"], "result"), .divide: ("divide", ["a", "b"], "result"),
      .choose: ("if", ["condition", "then", "else"], "value"),
      .select: ("switch", ["key", "case1", "case2", "case3", "default"], "value"),
      .fallback: ("fallback", ["primary", "secondary"], "value")
    ]
    for node in nodes {
      let spec = names[node.kind]!
      var params: JSONObject = [:]
      if node.kind == .select { params["cases"] = .array([.number(0), .number(1), .number(2)]) }
      for (port, source) in node.sources.enumerated() where source == nil {
        if case .number(let x) = node.constants[port] { params[spec.ports[port]] = .number(x) }
      }
      document.nodes.append(FlowNode(id: node.id, data: NodeSpec(kind: spec.kind, params: params)))
    }
    for (target, node) in nodes.enumerated() {
      for (port, source) in node.sources.enumerated() {
        guard let source else { continue }
        document.edges.append(
          FlowEdge(
            id: "e\(document.edges.count)", sourceNodeID: nodes[source].id,
            sourceHandleID: names[nodes[source].kind]!.output, targetNodeID: nodes[target].id,
            targetHandleID: names[node.kind]!.ports[port]))
      }
    }
    return document
  }

  /// The port names of node `index`, in port order.
  func portName(_ index: Int, _ port: Int) -> String {
    switch nodes[index].kind {
    case .knob, .add, .multiply, .divide: ["a", "b"][port]
    case .choose: ["condition", "then", "else"][port]
    case .select: ["key", "case1", "case2", "case3", "default"][port]
    case .fallback: ["primary", "secondary"][port]
    }
  }

  /// Sets an unconnected input's value (an edit), dirtying the node if it changed.
  mutating func set(_ index: Int, _ port: Int, _ value: Value) {
    guard !nodes[index].constants[port].isIdentical(to: value) else { return }
    nodes[index].constants[port] = value
    dirty[index] = true
  }

  /// One pass from the roots; returns the nodes that ran.
  mutating func pass() -> Set<Int> {
    var visited = Set<Int>()
    var ran = Set<Int>()
    for root in roots { visit(root, &visited, &ran) }
    return ran
  }

  private func inputEntry(_ index: Int, _ port: Int) -> LazyInputs.Entry {
    guard let source = nodes[index].sources[port] else { return .value(nodes[index].constants[port]) }
    if let failed = failure[source] { return .failed(message(source, failed)) }
    return .value(output[source])
  }

  func message(_ node: Int, _ failed: (root: Int, message: String?)) -> String {
    failed.root == node ? (failed.message ?? "failed") : "upstream error from \(nodes[failed.root].id)"
  }

  private mutating func visit(_ index: Int, _ visited: inout Set<Int>, _ ran: inout Set<Int>) {
    guard visited.insert(index).inserted else { return }
    let node = nodes[index]
    for (port, source) in node.sources.enumerated() where !node.lazy[port] {
      if let source { visit(source, &visited, &ran) }
    }
    var eagerRoot: Int?
    for (port, source) in node.sources.enumerated() where !node.lazy[port] && eagerRoot == nil {
      if let source, let failed = failure[source] { eagerRoot = failed.root }
    }
    if node.lazy.contains(true) {
      if let eagerRoot {
        needs[index] = Array(repeating: false, count: node.sources.count)
        if dirty[index] {
          dirty[index] = false
          settle(index, failure: (eagerRoot, nil))
        }
        return
      }
      var entries: [LazyInputs.Entry?] = node.sources.indices.map { port in
        node.lazy[port] && node.sources[port] != nil ? nil : inputEntry(index, port)
      }
      var asked = Array(repeating: false, count: node.sources.count)
      var answer = asked
      while true {
        let ports = Self.needed(node.kind, entries)
        answer = Array(repeating: false, count: node.sources.count)
        var grew = false
        for port in ports {
          answer[port] = true
          asked[port] = true
          guard entries[port] == nil else { continue }
          visit(node.sources[port]!, &visited, &ran)
          entries[port] = inputEntry(index, port)
          grew = true
        }
        if !grew { break }
      }
      needs[index] = asked
      guard dirty[index] else { return }
      dirty[index] = false
      for port in node.sources.indices where answer[port] {
        if let source = node.sources[port], let failed = failure[source] {
          settle(index, failure: (failed.root, nil))
          return
        }
      }
      ran.insert(index)
      everRan[index] = true
      let value: Value =
        switch node.kind {
        case .choose: answer[1] ? entryValue(entries[1]) : entryValue(entries[2])
        case .select: entryValue(entries[answer.firstIndex(of: true)!])
        case .fallback: answer[0] ? entryValue(entries[0]) : entryValue(entries[1])
        default: .null
        }
      settle(index, value: value)
      return
    }
    guard dirty[index] else { return }
    dirty[index] = false
    if let eagerRoot {
      settle(index, failure: (eagerRoot, nil))
      return
    }
    ran.insert(index)
    everRan[index] = true
    let values = node.sources.indices.map { entryValue(inputEntry(index, $0)).numberValue ?? .nan }
    switch node.kind {
    case .knob, .add: settle(index, value: .number(values[0] + values[1]))
    case .multiply: settle(index, value: .number(values[0] * values[1]))
    default:
      if values[1] == 0 {
        settle(index, failure: (index, "division by zero"))
      } else {
        settle(index, value: .number(values[0] / values[1]))
      }
    }
  }

  private func entryValue(_ entry: LazyInputs.Entry?) -> Value {
    if case .value(let value)? = entry { return value }
    return .null
  }

  /// The lazy ports a node asks for, given what is available (the kinds' rules).
  static func needed(_ kind: Kind, _ entries: [LazyInputs.Entry?]) -> [Int] {
    func value(_ port: Int) -> Value? {
      if case .value(let value)? = entries[port] { return value }
      return nil
    }
    switch kind {
    case .choose:
      let condition = value(0)?.numberValue ?? 0
      return [condition != 0 ? 1 : 2]
    case .select:
      let key = value(0)?.numberValue
      for item in 0..<3 where key == Double(item) { return [item + 1] }
      return [4]
    case .fallback:
      guard entries[0] != nil else { return [0] }
      if let primary = value(0), primary != .null { return [0] }
      return [1]
    default: return []
    }
  }

  private mutating func settle(_ index: Int, failure failed: (root: Int, message: String?)) {
    let previous = failure[index]
    var changed = previous?.root != failed.root
    if let message = failed.message { changed = changed || previous?.message != message }
    failure[index] = failed
    if changed { propagate(index) }
  }

  private mutating func settle(_ index: Int, value: Value) {
    var changed = failure[index] != nil
    failure[index] = nil
    if !output[index].isIdentical(to: value) {
      output[index] = value
      changed = true
    }
    if changed { propagate(index) }
  }

  private mutating func propagate(_ index: Int) {
    for (target, port) in successors[index] where !nodes[target].lazy[port] || needs[target][port] {
      dirty[target] = true
    }
  }

  /// What `GraphEvaluator.state(of:)` should say of node `index`.
  func state(_ index: Int) -> NodeState {
    if let failed = failure[index] { return .failed(message: message(index, failed), root: nodes[failed.root].id) }
    if dirty[index] || !everRan[index] { return .notComputed }
    let port = [.knob, .add, .multiply, .divide].contains(nodes[index].kind) ? "result" : "value"
    return .value([port: output[index]])
  }
}
