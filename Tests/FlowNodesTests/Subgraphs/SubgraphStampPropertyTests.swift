import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing

/// Random runs of definition edits (taken in bulk, trusting `StoreStamps`), inner nodes edited
/// or moved on their own, undo, redo and compactions that renumber every slot, against a model
/// of what each instance's inner nodes hold: the values, every inner node's param and, in debug
/// builds, every stamp's claim (the store checks them all after each mutation of a graph this
/// small) must agree after every step.
@Suite struct SubgraphStampPropertyTests {
  typealias F = SubgraphFixtures

  /// The inner nodes' `b` params: `a = x + p[0]`, `b = a × p[1]`, `c = b + p[2]`.
  static let inner = ["a", "b", "c"]

  static func chain(_ params: [Int]) -> SubgraphDefinition {
    SubgraphDefinition(
      nodes: [
        F.input("x", "x"), .node("a", "add", params: ["b": .number(Double(params[0]))]),
        .node("b", "multiply", params: ["b": .number(Double(params[1]))]),
        .node("c", "add", params: ["b": .number(Double(params[2]))]), F.output("out", "y")
      ],
      edges: [
        .edge("e1", "x.value", "a.a"), .edge("e2", "a.result", "b.a"), .edge("e3", "b.result", "c.a"),
        .edge("e4", "c.result", "out.value")
      ])
  }

  /// What the test expects: the definition's params and each instance's inner params.
  struct Model: Equatable {
    var definition = [1, 2, 3]
    var instances = Array(repeating: [1, 2, 3], count: 6)
  }

  static func document(pads: Int) -> FlowDocument {
    var nodes: [FlowNode] = (0..<pads).map { .node("p\($0)", "number", params: ["value": .number(Double($0))]) }
    var edges: [FlowEdge] = []
    for index in 0..<6 {
      nodes += [
        .node("v\(index)", "number", params: ["value": .number(Double(index))]), .node("c\(index)", "chain"),
        .node("sum\(index)", "add", params: ["b": 100])
      ]
      edges += [
        .edge("in\(index)", "v\(index).value", "c\(index).x"), .edge("out\(index)", "c\(index).y", "sum\(index).a")
      ]
    }
    return F.document(nodes, edges, subgraphs: ["chain": chain([1, 2, 3])])
  }

  static func check(_ engine: FlowEngine, _ model: Model, _ comment: String) async {
    for (index, params) in model.instances.enumerated() {
      let y = (Double(index + params[0]) * Double(params[1])) + Double(params[2])
      #expect(await engine.outputs(of: "sum\(index)") == ["result": .number(y + 100)], "sum\(index): \(comment)")
      for (k, id) in inner.enumerated() {
        #expect(
          engine.store.node(id: "c\(index)/\(id)")?.data.params["b"] == .number(Double(params[k])),
          "c\(index)/\(id): \(comment)")
      }
    }
    #expect(engine.store.subgraphs["chain"] == chain(model.definition), "\(comment)")
    engine.store._checkInvariants()
  }

  @Test(arguments: 0..<12)
  func bulkEditsTrustOnlyWhatTheyWrote(seed: UInt64) async throws {
    var random = SeededRandom(seed: 0x57A_0000 + seed)
    let pads = 40
    let engine = try FlowEngine(document: Self.document(pads: pads), registry: .standard)
    await engine.evaluate()
    // A short history, so that the pads' slots are forgotten and compaction drops them.
    engine.store._compactionMinimum = 6
    engine.store.undoCapacity = 4
    let slots = engine.store._slotCounts.nodes
    var model = Model()
    var undo: [Model] = [], redo: [Model] = []
    var removed = 0
    func pushUndo(_ state: Model) {
      undo.append(state)
      if undo.count > 4 { undo.removeFirst() }
      redo = []
    }
    func committed(_ next: Model) {
      pushUndo(model)
      model = next
    }
    for step in 0..<60 {
      var next = model
      let comment: String
      switch Int.random(in: 0..<12, using: &random) {
      case 0..<4:  // the definition: one or two inner params
        for _ in 0..<Int.random(in: 1...2, using: &random) {
          next.definition[Int.random(in: 0..<3, using: &random)] = Int.random(in: 0...6, using: &random)
        }
        // Re-expansion replaces the inner nodes whose template changed, in every instance.
        for k in 0..<3 where next.definition[k] != model.definition[k] {
          for index in next.instances.indices { next.instances[index][k] = next.definition[k] }
        }
        comment = "definition \(next.definition)"
        try engine.store.setSubgraph("chain", Self.chain(next.definition))
        if next != model { committed(next) }
      case 4:  // an inner node's own param
        let index = Int.random(in: 0..<6, using: &random), k = Int.random(in: 0..<3, using: &random)
        next.instances[index][k] = Int.random(in: 0...6, using: &random)
        comment = "c\(index)/\(Self.inner[k]) = \(next.instances[index][k])"
        var node = try #require(engine.store.node(id: "c\(index)/\(Self.inner[k])"))
        node.data.params["b"] = .number(Double(next.instances[index][k]))
        try engine.store.updateNode(node)
        if next != model { committed(next) }
      case 5:  // an inner node moved
        let id = "c\(Int.random(in: 0..<6, using: &random))/\(Self.inner.randomElement(using: &random)!)"
        comment = "move \(id)"
        var node = try #require(engine.store.node(id: id))
        node.position.y += 10
        try engine.store.updateNode(node)
        pushUndo(model)
      case 6, 7:
        comment = "undo"
        #expect(engine.store.undo() == !undo.isEmpty, "\(comment) at \(step)")
        if let last = undo.popLast() {
          redo.append(model)
          model = last
        }
      case 8:
        comment = "redo"
        #expect(engine.store.redo() == !redo.isEmpty, "\(comment) at \(step)")
        if let last = redo.popLast() {
          undo.append(model)
          if undo.count > 4 { undo.removeFirst() }
          model = last
        }
      default:  // a pad goes: tombstones before every instance, compacted now and then
        guard removed < pads else { continue }
        comment = "remove p\(removed)"
        try engine.store.removeNode(id: "p\(removed)")
        removed += 1
        pushUndo(model)
      }
      await engine.evaluate()
      await Self.check(engine, model, "seed \(seed), step \(step): \(comment)")
    }
    if removed > 10 { #expect(engine.store._slotCounts.nodes < slots, "seed \(seed): no compaction") }
    engine.shutDown()
  }
}
