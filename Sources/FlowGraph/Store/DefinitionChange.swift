/// A definition changing from library `old` to `new`: for each instance kind, what differs
/// between its templates before and after, found once and applied to every instance.
struct DefinitionChange {
  let old: SubgraphLibrary
  let new: SubgraphLibrary
  var oldTemplates: SubgraphTemplates
  var newTemplates: SubgraphTemplates
  private var diffs: [String: TemplateDiff] = [:]
  /// The kind asked for last and its diff (instances of one kind come one after another).
  private var last: (kind: String, diff: TemplateDiff?)?

  init(old: SubgraphLibrary, new: SubgraphLibrary) {
    self.old = old
    self.new = new
    oldTemplates = SubgraphTemplates(library: old)
    newTemplates = SubgraphTemplates(library: new)
  }

  /// What differs for instances of `kind`; `nil` where either library lacks it.
  mutating func diff(_ kind: String) -> TemplateDiff? {
    if let last, last.kind == kind { return last.diff }
    let diff = makeDiff(kind)
    last = (kind, diff)
    return diff
  }

  private mutating func makeDiff(_ kind: String) -> TemplateDiff? {
    if let diff = diffs[kind] { return diff }
    guard let before = oldTemplates.template(kind), let after = newTemplates.template(kind) else { return nil }
    var portsStay = false
    if let oldPorts = old[kind]?.inputs, let newPorts = new[kind]?.inputs {
      portsStay = oldPorts.allSatisfy { port in newPorts.contains { $0.name == port.name && $0.nodeID == port.nodeID } }
    }
    let diff = TemplateDiff(before, after, portsStay: portsStay)
    diffs[kind] = diff
    return diff
  }
}

/// What differs between two templates of one kind, by relative id. The instance node and the
/// definition's own `input` nodes (which take the instance's params) are placed, and compared
/// there with the store's node, unless their template node and port are the same before and
/// after (every instance's node then stays the same).
final class TemplateDiff {
  let before: SubgraphTemplate
  let after: SubgraphTemplate
  let removedEdges: [Int]
  let removedNodes: [Int]
  let placedNodes: [Int]
  let addedEdges: [Int]
  /// By index in `after`: the index in `before` of the node with the same relative id.
  let oldIndex: [Int?]
  /// Whether every input port of the kind keeps its name and `input` node.
  let portsStay: Bool
  /// By index in `after`: whether the node has the same spec in every instance (all but the
  /// definition's `input` nodes and the instance node, placed per instance).
  let isShared: [Bool]
  /// By index in `after`: a shared node's signature and payload, resolved for the first
  /// instance and handed to every other (`.some(nil)`: it does not resolve cleanly).
  private var resolutions: [(signature: NodeSignature, payload: (any Sendable)?)??]

  init(_ before: SubgraphTemplate, _ after: SubgraphTemplate, portsStay: Bool) {
    self.before = before
    self.after = after
    self.portsStay = portsStay
    let oldEdges = Dictionary(before.edges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newEdges = Dictionary(after.edges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var oldIndices: [String: Int] = [:]
    for (index, node) in before.nodes.enumerated() where oldIndices[node.id] == nil { oldIndices[node.id] = index }
    let newIDs = Set(after.nodes.map(\.id))
    removedEdges = before.edges.indices.filter { newEdges[before.edges[$0].id] != before.edges[$0] }
    removedNodes = before.nodes.indices.filter { !newIDs.contains(before.nodes[$0].id) }
    let perInstance = Set(after.inputs.map(\.index) + [after.nodes.count - 1])
    isShared = after.nodes.indices.map { !perInstance.contains($0) }
    resolutions = Array(repeating: nil, count: after.nodes.count)
    oldIndex = after.nodes.map { oldIndices[$0.id] }
    placedNodes = after.nodes.indices.filter { index in
      guard let oldIndex = oldIndices[after.nodes[index].id] else { return true }
      let old = before.nodes[oldIndex]
      // A node placed per instance is stamped from its template node, the instance and its
      // port: where all three stay, so does every instance's node.
      if perInstance.contains(index) {
        let wasInstance = oldIndex == before.nodes.count - 1, isInstance = index == after.nodes.count - 1
        guard wasInstance == isInstance, before.inputPorts[oldIndex] == after.inputPorts[index] else { return true }
      }
      var next = after.nodes[index]
      next.position = old.position
      next.size = old.size
      next.isSelected = old.isSelected
      return next != old
    }
    addedEdges = after.edges.indices.filter { oldEdges[after.edges[$0].id] != after.edges[$0] }
  }

  /// The signature and payload of `node`, shared inner node `index` of `after` in some
  /// instance, resolved once for all instances; `nil` where it does not resolve cleanly (the
  /// store then resolves it as usual, and reports its problems).
  func resolved(_ index: Int, of node: FlowNode, catalog: some NodeCatalog) -> (
    signature: NodeSignature, payload: (any Sendable)?
  )? {
    if let known = resolutions[index] { return known }
    var result: (signature: NodeSignature, payload: (any Sendable)?)?
    if node.handles == nil, case (.resolved(let signature), let payload) = catalog.resolveWithPayload(node.data) {
      result = (signature, payload)
    }
    resolutions[index] = .some(result)
    return result
  }
}
