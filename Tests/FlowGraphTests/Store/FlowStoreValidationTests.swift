import Testing

import FlowGraph
import FlowTestSupport

/// Runs `mutation` on a store holding `document` and checks that it is rejected with
/// `issueCount` issues, and that nothing changed (graph, per-node lists, revision, history) and
/// nothing fired.
///
/// - Returns: the first issue.
private func rejection(
  of mutation: (FlowStore) throws(GraphValidationError) -> Void,
  in document: FlowDocument = StoreFixtures.calculator(), issueCount: Int = 1,
  sourceLocation: SourceLocation = #_sourceLocation
) -> GraphIssue? {
  let store = FlowStore.testing(document)
  let recorder = StoreRecorder(store)
  let before = StoreContents(store)
  let error = #expect(throws: GraphValidationError.self, sourceLocation: sourceLocation) { try mutation(store) }
  #expect(error?.issues.count == issueCount, "\(error?.description ?? "")", sourceLocation: sourceLocation)
  #expect(StoreContents(store) == before, sourceLocation: sourceLocation)
  #expect(recorder.log.isEmpty, sourceLocation: sourceLocation)
  store._checkInvariants()
  return error?.issues.first
}

@Suite struct FlowStoreValidationTests {
  // MARK: - Nodes

  @Test func aDuplicateNodeIDIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addNode(.node("sum", "number")) }
    #expect(issue?.code == .duplicateNodeID)
    #expect(issue?.nodeIDs == ["sum"])
    #expect(issue?.message == "duplicate node id 'sum': the store already has a node with that id")
  }

  @Test func anUnknownKindIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addNode(.node("c", "warp")) }
    #expect(issue?.code == .unknownKind)
    #expect(issue?.message == "node 'c' has unknown kind 'warp'")
  }

  @Test func anInvalidParamIsRejectedNamingNodeAndParam() {
    let issue = rejection { store throws(GraphValidationError) in
      try store.addNode(.node("c", "number", params: ["colour": "red"]))
    }
    #expect(issue?.code == .invalidParameter)
    #expect(issue?.parameter == "colour")
    #expect(issue?.message == "node 'c' (number): param 'colour' is not a param of kind 'number' (known: value)")
  }

  @Test func handlesThatDisagreeWithTheKindAreRejected() {
    let issue = rejection(
      of: { store throws(GraphValidationError) in
        try store.addNode(
          .node("c", "number", handles: [HandleDeclaration(id: "value", type: .target, position: .left)]))
      }, issueCount: 2)
    #expect(issue?.code == .handlesDisagreeWithKind)
    #expect(issue?.handleID == "value")
    #expect(issue?.message == "node 'c' (number): handle 'value' is declared as a target but 'value' is an output port")
  }

  @Test func removingOrUpdatingAnUnknownNodeIsRejected() {
    let removal = rejection { store throws(GraphValidationError) in try store.removeNode(id: "ghost") }
    #expect(removal?.code == .unknownNode && removal?.nodeIDs == ["ghost"])
    #expect(removal?.message == "cannot remove node 'ghost': there is no node with that id")
    let update = rejection { store throws(GraphValidationError) in try store.updateNode(.node("ghost", "number")) }
    #expect(update?.code == .unknownNode)
    #expect(update?.message == "cannot update node 'ghost': there is no node with that id")
  }

  @Test func aNewKindWhoseInputsNoLongerFitAnEdgeIsRejectedNamingTheEdge() {
    let issue = rejection(
      of: { store throws(GraphValidationError) in
        try store.updateNode(.node("sum", "pass"))
      }, issueCount: 3)
    #expect(issue?.code == .unknownHandle && issue?.edgeID == "e1")
    let store = FlowStore.testing(StoreFixtures.calculator())
    let error = #expect(throws: GraphValidationError.self) { try store.updateNode(.node("sum", "pass")) }
    #expect(error?.issues.map(\.edgeID) == ["e1", "e2", "e3"])
    #expect(
      error?.issues.map(\.message) == [
        "node 'sum' cannot change: its incoming edge 'e1' ends at unknown handle 'a' of node 'sum' (its input ports are in)",
        "node 'sum' cannot change: its incoming edge 'e2' ends at unknown handle 'b' of node 'sum' (its input ports are in)",
        "node 'sum' cannot change: its outgoing edge 'e3' starts at unknown handle 'result' of node 'sum' (its output ports are out)"
      ])
  }

  @Test func aNewSpecThatMakesAHandleLessEdgeAmbiguousIsRejected() {
    let document = FlowDocument(
      nodes: [.node("x", "number"), .node("m", "merge", params: ["inputs": 1])],
      edges: [.edge("e1", "x.value", "m")])
    let issue = rejection(
      of: { store throws(GraphValidationError) in
        try store.updateNode(.node("m", "merge", params: ["inputs": 3]))
      }, in: document)
    #expect(issue?.code == .ambiguousHandle && issue?.edgeID == "e1")
    #expect(
      issue?.message
        == "node 'm' cannot change: its incoming edge 'e1' ends at node 'm' without a handle id, which has 3 input ports (in0, in1, in2); name the handle"
    )
  }

  @Test func aNewSpecThatDoesNotResolveIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in
      try store.updateNode(.node("a", "number", params: ["value": "ten"]))
    }
    #expect(issue?.code == .invalidParameter && issue?.parameter == "value")
  }

  // MARK: - Edges

  @Test func aDuplicateEdgeIDIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addEdge(.edge("e1", "p.out", "show.value"))
    }
    #expect(issue?.code == .duplicateEdgeID && issue?.edgeID == "e1")
    #expect(issue?.message == "duplicate edge id 'e1': the store already has an edge with that id")
  }

  @Test func anEdgeToAMissingNodeIsRejectedNamingBoth() {
    let store = FlowStore.testing(StoreFixtures.calculator())
    let error = #expect(throws: GraphValidationError.self) {
      try store.addEdge(.edge("e9", "ghost.value", "phantom.in"))
    }
    #expect(
      error?.issues.map(\.message) == [
        "edge 'e9' starts at node 'ghost', which does not exist",
        "edge 'e9' ends at node 'phantom', which does not exist"
      ])
    let issue = rejection { store throws(GraphValidationError) in
      try store.addEdge(.edge("e9", "a.value", "phantom.in"))
    }
    #expect(issue?.code == .missingNode && issue?.nodeIDs == ["phantom"] && issue?.handleID == "in")
  }

  @Test func anUnknownHandleIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addEdge(.edge("e9", "p.out", "show.input"))
    }
    #expect(issue?.code == .unknownHandle && issue?.edgeID == "e9" && issue?.handleID == "input")
    #expect(issue?.message == "edge 'e9' ends at unknown handle 'input' of node 'show' (its input ports are value)")
  }

  @Test func aWrongDirectionIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addEdge(.edge("e9", "p.in", "show.value")) }
    #expect(issue?.code == .wrongDirection)
    #expect(issue?.message == "edge 'e9' goes out of the input 'in' of node 'p'")
  }

  @Test func anAmbiguousHandleLessEndIsRejected() {
    let issue = rejection { store throws(GraphValidationError) in try store.addEdge(.edge("e9", "p.out", "sum")) }
    #expect(issue?.code == .ambiguousHandle)
    #expect(
      issue?.message
        == "edge 'e9' ends at node 'sum' without a handle id, which has 2 input ports (a, b); name the handle")
  }

  @Test func incompatiblePortTypesAreRejected() {
    var document = StoreFixtures.calculator()
    document.nodes.append(.node("t", "text"))
    let issue = rejection(
      of: { store throws(GraphValidationError) in
        try store.addEdge(.edge("e9", "t.value", "p.in"))
      },
      in: {
        var d = document; d.edges.removeLast(); return d
      }())
    #expect(issue?.code == .typeMismatch && issue?.handleID == "in")
    #expect(issue?.message == "edge 'e9': t.value is string but p.in takes number")
  }

  @Test func aSecondEdgeIntoAnInputIsRejectedNamingTheFirst() {
    let issue = rejection { store throws(GraphValidationError) in try store.addEdge(.edge("e9", "b.value", "sum.a")) }
    #expect(issue?.code == .inputAlreadyConnected && issue?.edgeID == "e9" && issue?.handleID == "a")
    #expect(
      issue?.message
        == "input 'a' of node 'sum' already has edge 'e1'; edge 'e9' cannot connect to it (an input takes one)")
  }

  @Test func aCycleIsRejectedListingItsNodes() {
    let document = FlowDocument(
      nodes: [.node("x", "identity"), .node("y", "identity"), .node("z", "merge")],
      edges: [.edge("e1", "x", "y"), .edge("e2", "y", "z.in0")])
    let issue = rejection(
      of: { store throws(GraphValidationError) in
        try store.addEdge(.edge("e3", "z", "x"))
      }, in: document)
    #expect(issue?.code == .cycle && issue?.edgeID == "e3")
    #expect(issue?.nodeIDs == ["z", "x", "y"])
    #expect(issue?.message == "edge 'e3' would close a cycle: z → x → y → z")
  }

  @Test func aSelfLoopIsACycle() {
    let loop = rejection(
      of: { store throws(GraphValidationError) in
        try store.addEdge(.edge("e9", "x", "x"))
      }, in: FlowDocument(nodes: [.node("x", "identity")]))
    #expect(loop?.code == .cycle && loop?.nodeIDs == ["x"])
    #expect(loop?.message == "edge 'e9' would close a cycle: x → x")
  }

  @Test func removingOrUpdatingAnUnknownEdgeIsRejected() {
    let removal = rejection { store throws(GraphValidationError) in try store.removeEdge(id: "ghost") }
    #expect(removal?.code == .unknownEdge && removal?.edgeID == "ghost")
    #expect(removal?.message == "cannot remove edge 'ghost': there is no edge with that id")
    let update = rejection { store throws(GraphValidationError) in try store.updateEdge(.edge("ghost", "a", "p")) }
    #expect(update?.code == .unknownEdge)
    #expect(update?.message == "cannot update edge 'ghost': there is no edge with that id")
  }

  @Test func rewiringIntoACycleOrAnOccupiedInputIsRejected() {
    let cycle = rejection { store throws(GraphValidationError) in try store.updateEdge(.edge("e1", "p.out", "sum.a")) }
    #expect(cycle?.code == .cycle)
    #expect(cycle?.message == "edge 'e1' would close a cycle: p → sum → p")
    let occupied = rejection { store throws(GraphValidationError) in
      try store.updateEdge(.edge("e1", "a.value", "sum.b"))
    }
    #expect(occupied?.code == .inputAlreadyConnected)
    #expect(
      occupied?.message
        == "input 'b' of node 'sum' already has edge 'e2'; edge 'e1' cannot connect to it (an input takes one)")
  }

  @Test func rewiringAnEdgeOntoItsOwnInputIsAccepted() throws {
    let store = FlowStore.testing(StoreFixtures.calculator())
    try store.updateEdge(.edge("e3", "sum", "p"))  // the same ports, written without handles
    #expect(store.edge(id: "e3") == .edge("e3", "sum", "p"))
    #expect(store.incomingEdges(of: "p").map(\.id) == ["e3"])
    store._checkInvariants()
  }
}
