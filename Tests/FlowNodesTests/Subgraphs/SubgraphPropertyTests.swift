import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// Random calculator graphs with random instances (nested up to 3 levels) against their
/// flattened documents, inlined by a separate, simple flattener written here: the same values,
/// failures, cut-off and ran sets, before and after random edits to definitions, instances and
/// the outer graph (Reference.md, "Subgraphs": meaning = the flattened graph).
@Suite struct SubgraphPropertyTests {
  typealias F = SubgraphFixtures

  /// The reference's output node: one input, no outputs.
  struct Sink: NodeKind, NodeEvaluator {
    var name: String { "refSink" }
    var summary: String { "takes a value" }
    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(inputs: [InputPort("in", .any, default: .null)], outputs: [], evaluator: self)
    }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {}
  }

  /// The reference's `input` and instance: forwards what reaches its `number` input `v` as it
  /// is, as the inlined boundary nodes do (an edge does not convert: an integer stays an
  /// integer), and a param `v` converts to a number as a param setting a `number` input does.
  /// (An `expression "v"`, which computes a number, would turn a `number` node's integer into
  /// the equal `Double` where the inlined graph forwards the integer.)
  struct Pass: NodeKind, NodeEvaluator {
    var name: String { "refPass" }
    var summary: String { "forwards a value" }
    func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
      NodeInstance(
        inputs: [InputPort("v", .number, default: .null)], outputs: [PortDeclaration("result", .any)], evaluator: self)
    }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
  }

  static let arithmetic = ["add", "subtract", "multiply", "divide"]

  /// A random definition whose inner instances are of `usable` kinds (with inputs `ports`).
  static func definition(_ random: inout SeededRandom, usable: [String: [SubgraphPort]]) -> SubgraphDefinition {
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    var sources: [(id: String, port: String)] = []
    for index in 1...Int.random(in: 1...2, using: &random) {
      let hasDefault = Bool.random(using: &random)
      nodes.append(
        F.input("i\(index)", "p\(index)", default: hasDefault ? .integer(Int64.random(in: 0...4, using: &random)) : nil)
      )
      sources.append(("i\(index)", "value"))
    }
    for index in 1...Int.random(in: 2...4, using: &random) {
      let id = "n\(index)"
      let instance = !usable.isEmpty && Int.random(in: 0..<3, using: &random) == 0
      let kind =
        instance
        ? usable.keys.sorted().randomElement(using: &random)!
        : (arithmetic + ["expression"]).randomElement(using: &random)!
      var params: JSONObject =
        kind == "expression" ? ["formula": .string("x * y + \(Int.random(in: 0...3, using: &random))")] : [:]
      let ports: [(name: String, required: Bool)] =
        instance
        ? usable[kind]!.map { ($0.name, $0.isRequired) }
        : kind == "expression" ? [("x", false), ("y", false)] : [("a", false), ("b", false)]
      for port in ports {
        if Int.random(in: 0..<10, using: &random) < 7, let source = sources.randomElement(using: &random) {
          edges.append(.edge("e\(edges.count)", "\(source.id).\(source.port)", "\(id).\(port.name)"))
        } else if port.required || Bool.random(using: &random) {
          params[port.name] = .integer(Int64.random(in: 0...5, using: &random))
        }
      }
      nodes.append(.node(id, kind, params: params))
      sources.append((id, instance ? "out" : "result"))
    }
    nodes.append(F.output("o", "out"))
    edges.append(.edge("e\(edges.count)", "\(sources.last!.id).\(sources.last!.port)", "o.value"))
    return SubgraphDefinition(nodes: nodes, edges: edges)
  }

  /// Definitions on three levels (each level may use the ones below) and an outer graph.
  static func document(_ random: inout SeededRandom) throws -> FlowDocument {
    var subgraphs: [String: SubgraphDefinition] = [:]
    var usable: [String: [SubgraphPort]] = [:]
    for (level, names) in [["l1a", "l1b"], ["l2a"], ["l3a"]].enumerated() {
      var added: [String: [SubgraphPort]] = [:]
      for name in names {
        subgraphs[name] = definition(&random, usable: level == 0 ? [:] : usable)
        let library = try SubgraphLibrary(
          [SubgraphSource(origin: "t", definitions: subgraphs)], catalog: NodeKindRegistry.standard)
        added[name] = library[name]!.inputs
      }
      usable.merge(added) { a, _ in a }
    }
    var nodes: [FlowNode] = (0..<3).map {
      .node("s\($0)", "number", params: ["value": .integer(Int64.random(in: 0...6, using: &random))])
    }
    var edges: [FlowEdge] = []
    var sources = nodes.map { ($0.id, "value") }
    for index in 0..<Int.random(in: 4...8, using: &random) {
      let id = "x\(index)"
      let instance = Bool.random(using: &random)
      let kind =
        instance ? usable.keys.sorted().randomElement(using: &random)! : arithmetic.randomElement(using: &random)!
      var params: JSONObject = [:]
      let ports: [(String, Bool)] =
        instance ? usable[kind]!.map { ($0.name, $0.isRequired) } : [("a", false), ("b", false)]
      for (port, required) in ports {
        if Int.random(in: 0..<10, using: &random) < 6, let source = sources.randomElement(using: &random) {
          edges.append(.edge("t\(edges.count)", "\(source.0).\(source.1)", "\(id).\(port)"))
        } else if required || Bool.random(using: &random) {
          params[port] = .integer(Int64.random(in: 0...5, using: &random))
        }
      }
      nodes.append(.node(id, kind, params: params))
      sources.append((id, instance ? "out" : "result"))
    }
    return FlowDocument(nodes: nodes, edges: edges, subgraphs: subgraphs)
  }

  /// The flattened document, inlined here independently of `SubgraphExpander`: an `input`
  /// becomes a `refPass` (its param or default as `v`), an `output` a `refSink`, an
  /// instance a `refPass` fed by what feeds its `output`.
  static func flattened(_ document: FlowDocument) -> FlowDocument {
    var nodes: [FlowNode] = []
    var edges: [FlowEdge] = []
    let definitions = document.subgraphs
    func level(_ levelNodes: [FlowNode], _ levelEdges: [FlowEdge], _ prefix: String, _ params: JSONObject, top: Bool) {
      let kinds = Dictionary(uniqueKeysWithValues: levelNodes.map { ($0.id, $0.data.kind) })
      for node in levelNodes {
        let id = prefix + node.id
        if let definition = definitions[node.data.kind] {
          level(definition.nodes, definition.edges, id + "/", node.data.params, top: false)
          nodes.append(.node(id, "refPass"))
          let feeding = definition.edges.first { $0.targetNodeID == "o" }!
          let sourceKind = definition.nodes.first { $0.id == feeding.sourceNodeID }!.data.kind
          edges.append(
            FlowEdge(
              id: id + "/->", sourceNodeID: id + "/" + feeding.sourceNodeID,
              sourceHandleID: handle(feeding.sourceHandleID!, sourceKind), targetNodeID: id, targetHandleID: "v"))
        } else if !top && node.data.kind == "input" {
          let value = params[node.data.params["name"]!.stringValue!] ?? node.data.params["default"]
          nodes.append(.node(id, "refPass", params: value.map { ["v": $0] } ?? [:]))
        } else if !top && node.data.kind == "output" {
          nodes.append(.node(id, "refSink"))
        } else {
          var copy = node
          copy.id = id
          nodes.append(copy)
        }
      }
      for edge in levelEdges {
        var flat = edge
        flat.id = prefix + edge.id
        flat.sourceNodeID = prefix + edge.sourceNodeID
        flat.sourceHandleID = handle(edge.sourceHandleID!, kinds[edge.sourceNodeID]!)
        flat.targetNodeID = prefix + edge.targetNodeID
        if let definition = definitions[kinds[edge.targetNodeID]!] {
          let input = definition.nodes.first {
            $0.data.kind == "input" && $0.data.params["name"]?.stringValue == edge.targetHandleID
          }!
          flat.targetNodeID += "/" + input.id
          flat.targetHandleID = "v"
        } else if kinds[edge.targetNodeID] == "output" {
          flat.targetHandleID = "in"
        }
        edges.append(flat)
      }
    }
    func handle(_ handle: String, _ kind: String) -> String {
      kind == "input" || definitions[kind] != nil ? "result" : handle
    }
    level(document.nodes, document.edges, "", [:], top: true)
    return FlowDocument(nodes: nodes, edges: edges)
  }

  /// What both engines must agree on after a pass.
  /// A store change that changed nothing is no pass (no revision): nothing ran.
  static func outcome(_ engine: FlowEngine, _ report: EvaluationReport?, ids: [String], changed: Bool = true) async
    -> [String]
  {
    let report = changed ? report : nil
    var lines = ["ran: \(Set(report?.ran ?? []).sorted())", "cut off: \(Set(report?.cutOff ?? []).sorted())"]
    lines.append("failed: \(await engine.failures().sorted { $0.key < $1.key })")
    for id in ids { lines.append("\(id) = \(String(describing: await engine.outputs(of: id)?.values.first))") }
    return lines
  }

  /// Replaces in `store` every node whose data differs in `document` (one batch).
  static func update(_ store: FlowStore, to document: FlowDocument) throws {
    try store.batch { (batch: inout FlowStore.Batch) throws(GraphValidationError) in
      for node in document.nodes where batch.node(id: node.id)?.data != node.data {
        var next = batch.node(id: node.id)!
        next.data = node.data
        try batch.updateNode(next)
      }
    }
  }

  @Test(arguments: 0..<24)
  func instancesMeanTheirFlattenedGraph(seed: UInt64) async throws {
    var random = SeededRandom(seed: 0x5B6_0000 + seed)
    var document = try Self.document(&random)
    var registry = NodeKindRegistry.standard
    registry.register(Sink())
    registry.register(Pass())
    let engine = try FlowEngine(document: document, registry: registry)
    let reference = try FlowEngine(document: Self.flattened(document), registry: registry)
    let ids = Self.flattened(document).nodes.map(\.id)
    #expect(Set(engine.store.nodes.map(\.id)) == Set(ids), "the same inlined ids")
    var mine = await Self.outcome(engine, await engine.evaluate(), ids: ids)
    var theirs = await Self.outcome(reference, await reference.evaluate(), ids: ids)
    #expect(mine == theirs, "seed \(seed), first pass")
    for round in 0..<6 {
      let before = engine.store.revision
      switch Int.random(in: 0..<3, using: &random) {
      case 0:  // a definition: one inner param
        let name = document.subgraphs.keys.sorted().randomElement(using: &random)!
        var definition = document.subgraphs[name]!
        let inner = definition.nodes.indices.filter {
          ["add", "subtract", "multiply", "divide"].contains(definition.nodes[$0].data.kind)
        }
        guard let index = inner.randomElement(using: &random) else { continue }
        definition.nodes[index].data.params[Bool.random(using: &random) ? "a" : "b"] = .integer(
          Int64.random(in: 0...5, using: &random))
        document.subgraphs[name] = definition
        try engine.store.setSubgraph(name, definition)
      case 1:  // an instance: one param
        let instances = document.nodes.indices.filter { document.subgraphs[document.nodes[$0].data.kind] != nil }
        guard let index = instances.randomElement(using: &random) else { continue }
        let ports = document.subgraphs[document.nodes[index].data.kind]!.nodes.filter { $0.data.kind == "input" }
        let port = ports.randomElement(using: &random)!.data.params["name"]!.stringValue!
        document.nodes[index].data.params[port] = .integer(Int64.random(in: 0...5, using: &random))
        try engine.store.updateNode(document.nodes[index])
      default:  // the outer graph: a number
        let index = Int.random(in: 0..<3, using: &random)
        document.nodes[index].data.params["value"] = .integer(Int64.random(in: 0...6, using: &random))
        try engine.store.updateNode(document.nodes[index])
      }
      let revision = reference.store.revision
      try Self.update(reference.store, to: Self.flattened(document))
      mine = await Self.outcome(engine, await engine.evaluate(), ids: ids, changed: engine.store.revision != before)
      theirs = await Self.outcome(
        reference, await reference.evaluate(), ids: ids, changed: reference.store.revision != revision)
      #expect(mine == theirs, "seed \(seed), edit \(round)")
    }
    #expect(engine.store.export().subgraphs == document.subgraphs)
    engine.shutDown()
    reference.shutDown()
  }
}
