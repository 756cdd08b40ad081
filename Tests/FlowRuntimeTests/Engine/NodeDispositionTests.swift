@testable import FlowRuntime
import Testing

/// The rules every executor follows for a node that must run (`NodeDisposition`), as a table:
/// every combination of what the rules read — the node's role, whether a lazy pass needs it,
/// whether it has lazy inputs, each of its two inputs failed or pending — against the
/// disposition expected.
@Suite struct NodeDispositionTests {
  /// One node (0) with two inputs (from 1 and 2), and exactly the state the rules read.
  struct Case: PassGraph, Sendable, CustomStringConvertible {
    var role: PassRole
    var lazy: Bool
    /// Per input (port 0 from node 1, port 1 from node 2): the failure root, or -1.
    var inputRoots: [Int32]
    var inputPending: [Bool]

    var passNodeCount: Int { 3 }
    var passPositionCapacity: Int { 3 }
    func passPosition(of node: Int32) -> Int32 { node == 0 ? 2 : node - 1 }
    func passNode(at position: Int32) -> Int32 { position == 2 ? 0 : position + 1 }
    func passSuccessorCount(of node: Int32) -> Int { node == 0 ? 0 : 1 }
    func passSuccessor(_ offset: Int, of node: Int32) -> Int32 { 0 }
    func passInputCount(of node: Int32) -> Int { node == 0 ? 2 : 0 }
    func passInputSource(_ port: Int, of node: Int32) -> Int32 { Int32(port + 1) }
    func passFailureRoot(of node: Int32) -> Int32 { node == 0 ? -1 : inputRoots[Int(node) - 1] }
    func passRole(of node: Int32) -> PassRole { node == 0 ? role : .cheap }
    func passHasPendingInput(_ node: Int32) -> Bool { node == 0 && inputPending.contains(true) }
    var passHasFailures: Bool { inputRoots.contains { $0 >= 0 } }
    func passHasLazyInputs(_ node: Int32) -> Bool { node == 0 && lazy }

    var description: String { "role \(role), lazy \(lazy), input roots \(inputRoots), pending \(inputPending)" }
  }

  /// The table, row by row: the first row whose conditions hold gives the disposition
  /// (`nil` conditions hold for any value).
  struct Row: Sendable {
    var roles: Set<PassRole>?
    var needed: Bool?
    var lazy: Bool?
    var failed: Bool?
    var pending: Bool?
    var expected: @Sendable (Case) -> NodeDisposition
  }

  static let table: [Row] = [
    Row(roles: [.inert], expected: { _ in .inert }),
    Row(roles: [.unnecessary], expected: { _ in .unnecessary }),
    Row(needed: false, expected: { _ in .notNeeded }),
    Row(lazy: true, expected: { _ in .lazy }),
    Row(roles: [.live], expected: { _ in .live }),
    // The first failed input in port order gives the root.
    Row(failed: true, expected: { .fail(root: $0.inputRoots.first { $0 >= 0 }!) }),
    Row(pending: true, expected: { _ in .pending }),
    Row(roles: [.cheap, .expensive], needed: true, lazy: false, failed: false, pending: false, expected: { _ in .run })
  ]

  @Test func everyCombinationGetsTheFirstMatchingRowOfTheTable() {
    let roles: [PassRole] = [.inert, .unnecessary, .live, .cheap, .expensive]
    let roots: [[Int32]] = [[-1, -1], [7, -1], [-1, 8], [7, 8]]
    let pendings: [[Bool]] = [[false, false], [true, false], [false, true]]
    var count = 0
    for role in roles {
      for needed in [true, false] {
        for lazy in [false, true] {
          for inputRoots in roots {
            for inputPending in pendings {
              let subject = Case(role: role, lazy: lazy, inputRoots: inputRoots, inputPending: inputPending)
              let failed = inputRoots.contains { $0 >= 0 }
              let pending = inputPending.contains(true)
              let row = Self.table.first { row in
                (row.roles?.contains(role) ?? true) && (row.needed.map { $0 == needed } ?? true)
                  && (row.lazy.map { $0 == lazy } ?? true) && (row.failed.map { $0 == failed } ?? true)
                  && (row.pending.map { $0 == pending } ?? true)
              }
              #expect(row != nil, "no row for \(subject), needed \(needed)")
              guard let row else { continue }
              #expect(
                NodeDisposition(of: 0, in: subject, needed: needed) == row.expected(subject),
                "\(subject), needed \(needed)")
              count += 1
            }
          }
        }
      }
    }
    #expect(count == 5 * 2 * 2 * 4 * 3)
  }

  /// Rules 6–8 alone (what a stateful live node applies): the role and demand do not count.
  @Test func theInputRulesIgnoreTheRole() {
    for role in [PassRole.inert, .unnecessary, .live, .cheap] {
      #expect(
        NodeDisposition(inputsOf: 0, in: Case(role: role, lazy: true, inputRoots: [-1, 5], inputPending: [true, false]))
          == .fail(root: 5))
      #expect(
        NodeDisposition(
          inputsOf: 0, in: Case(role: role, lazy: false, inputRoots: [-1, -1], inputPending: [false, true]))
          == .pending)
      #expect(
        NodeDisposition(
          inputsOf: 0, in: Case(role: role, lazy: false, inputRoots: [-1, -1], inputPending: [false, false]))
          == .run)
    }
  }

  /// The evaluator answers from its own state: failed inputs, demand, and a lazy pass's need.
  @Test func theEvaluatorsDispositionsFollowItsState() throws {
    var graphs = Graphs()
    graphs.number("one", 1)
    graphs.number("zero", 0)
    graphs.node("q", "divide")
    graphs.node("next", "add")
    graphs.node("other", "add", ["b": 5])
    graphs.edge("one", to: "q", "a")
    graphs.edge("zero", to: "q", "b")
    graphs.edge("q", to: "next", "a")
    graphs.edge("one", to: "other", "a")
    var evaluator = try graphs.evaluator(options: EngineOptions(demandDriven: true))
    evaluator.observe(["next", "other"])
    evaluator.evaluate()
    func index(_ id: String) -> Int32 { evaluator.graph.indexByID[id]! }
    #expect(evaluator.disposition(of: index("next")) == .fail(root: index("q")))
    #expect(evaluator.disposition(of: index("q")) == .run)
    #expect(evaluator.disposition(of: index("other")) == .run)
    #expect(evaluator.disposition(of: index("other"), needed: false) == .notNeeded)
    evaluator.unobserve("other")
    #expect(evaluator.disposition(of: index("other")) == .unnecessary)
    #expect(evaluator.disposition(of: index("other"), needed: false) == .unnecessary, "demand comes before need")
  }
}
