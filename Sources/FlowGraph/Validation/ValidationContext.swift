/// Shared state of one document validation: what each rule found and resolved so far.
///
/// Rules run in a fixed order (`DocumentValidator`); each appends issues and may fill in the
/// resolution later rules need. A node whose spec did not resolve has a `nil` signature and
/// the port rules skip edges that touch it, so one bad node does not produce a cascade of
/// issues. The cycle rule, though, sees every edge between existing nodes (`dependencies`),
/// whatever else is wrong with it, so a cycle is never hidden behind another problem.
///
/// Only the first `GraphValidationError.reportedIssueLimit` issues are kept; later ones are
/// counted in `unreportedCount` (bounded memory for documents with millions of problems).
struct ValidationContext {
  let document: FlowDocument
  /// `resolutions[i]`: what the catalog said of `document.nodes[i].data`.
  let resolutions: [NodeSpecResolution]
  /// The first issues found, in the order found.
  private(set) var issues: [GraphIssue] = []
  /// Issues found beyond `issues`.
  private(set) var unreportedCount = 0
  /// The id of each node (`document.nodes[i].id`), compact: what id lookups compare against.
  var nodeIDs: [String] = []
  /// id → index of the first node with that id.
  var nodeTable = IDIndex(capacity: 0)
  /// Each node's signature (`nil`: its spec did not resolve).
  var signatures = NodeSignatures()
  /// Edges whose endpoints and ports resolved, in document order.
  var edges: [ResolvedGraph.Edge] = []
  /// Every edge whose two nodes exist, resolved or not (ports are -1 when unresolved), in
  /// document order: what the cycle rule walks.
  var dependencies: [ResolvedGraph.Edge] = []

  init(document: FlowDocument, resolutions: [NodeSpecResolution]) {
    self.document = document
    self.resolutions = resolutions
  }

  /// The index of the (first) node with id `id`.
  @inline(__always)
  func nodeIndex(of id: String) -> Int32? {
    let ids = nodeIDs
    return nodeTable.position(of: id) { ids[Int($0)] }
  }

  /// Whether some issue was found (kept or counted).
  var hasIssues: Bool { !issues.isEmpty || unreportedCount > 0 }

  /// Keeps `issue`, or only counts it once the limit is reached.
  mutating func report(_ issue: @autoclosure () -> GraphIssue) {
    guard issues.count < GraphValidationError.reportedIssueLimit else {
      unreportedCount += 1
      return
    }
    issues.append(issue())
  }

  /// Every issue found, as one error.
  var error: GraphValidationError { GraphValidationError(issues: issues, unreportedCount: unreportedCount) }
}
