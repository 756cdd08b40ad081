/// Shared state of one document validation: what each rule found and resolved so far.
///
/// Rules run in a fixed order (`DocumentValidator`); each appends issues and may fill in the
/// resolution later rules need. A node whose spec did not resolve has a `nil` signature and
/// rules skip edges that touch it, so one bad node does not produce a cascade of issues.
struct ValidationContext {
  let document: FlowDocument
  /// `resolutions[i]`: what the catalog said of `document.nodes[i].data`.
  let resolutions: [NodeSpecResolution]
  var issues: [GraphIssue] = []
  /// id → index of the first node with that id.
  var indexByID: [String: Int32] = [:]
  var signatures: [NodeSignature?] = []
  /// Edges whose endpoints resolved, in document order.
  var edges: [ResolvedGraph.Edge] = []

  init(document: FlowDocument, resolutions: [NodeSpecResolution]) {
    self.document = document
    self.resolutions = resolutions
  }

  mutating func report(_ issue: GraphIssue) { issues.append(issue) }
}
