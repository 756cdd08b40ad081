import FlowGraph

/// Columns on demand: a backward pass over a document that gives each reader (a
/// `ColumnProjectingKind`) only the columns its consumers read, as an ordinary param. A changed
/// need is then a changed param: the engine reruns the reader like any edited node, and what
/// it did not read is never parsed (`readCSV` scans past it).
///
/// Needs flow from the sinks: an observed node (printed, watched) needs its outputs whole, as
/// does any consumer whose kind cannot say (not a `ColumnDemandingKind`); a `ColumnDemandingKind` maps what its outputs' consumers need to what each
/// input needs. A document with a cycle or an unknown node comes back unchanged.
///
/// A host applies it to each version of the document before handing it to the engine, and
/// replaces the nodes whose params it changed (`changedNodes(from:to:)`).
///
/// - Complexity: O(nodes + edges + the names in the needs).
public enum ColumnDemand {
  /// Which nodes' outputs are observed.
  public enum Observed: Sendable {
    /// The nodes no edge leaves (what `flow run` prints by default).
    case sinks
    /// These nodes.
    case nodes(Set<String>)
    /// Every node: nothing is projected.
    case everything
  }

  /// `document` with each projecting reader's params set to the columns its consumers read.
  public static func applied(to document: FlowDocument, registry: NodeKindRegistry, observed: Observed = .sinks)
    -> FlowDocument
  {
    if case .everything = observed { return document }
    // Most documents read no table: one string comparison per node, no allocation.
    let readers = registry.allKinds.compactMap { $0.asColumnProjectingKind != nil ? $0.name : nil }
    guard document.nodes.contains(where: { node in readers.contains(node.data.kind) }) else { return document }
    let count = document.nodes.count
    var index: [String: Int] = [:]
    index.reserveCapacity(count)
    for (position, node) in document.nodes.enumerated() where index.updateValue(position, forKey: node.id) != nil {
      return document
    }
    // Edges by source; the order is the one batch topological order (`TopologicalOrder.sorting`).
    // An edge without a handle goes to the node's first input: port "" here.
    var outgoing = [[(target: Int, port: String)]](repeating: [], count: count)
    var inputPorts = [Set<String>](repeating: [], count: count)
    var endpoints: [(source: Int32, target: Int32)] = []
    endpoints.reserveCapacity(document.edges.count)
    for edge in document.edges {
      guard let source = index[edge.sourceNodeID], let target = index[edge.targetNodeID] else { return document }
      outgoing[source].append((target, edge.targetHandleID ?? ""))
      inputPorts[target].insert(edge.targetHandleID ?? "")
      endpoints.append((Int32(source), Int32(target)))
    }
    let sorted = TopologicalOrder.sorting(SuccessorLists(nodeCount: count, edges: endpoints) { $0 })
    guard sorted.isComplete else { return document }
    let order = sorted.order.lazy.map { Int($0) }
    // Sinks first: a node's output needs are the union of what its consumers' inputs need.
    var inputNeeds = [[String: ColumnNeeds]](repeating: [:], count: count)
    var result = document
    for node in order.reversed() {
      let spec = document.nodes[node].data
      var needs: ColumnNeeds
      switch observed {
      case .sinks: needs = outgoing[node].isEmpty ? .all : .only([])
      case .nodes(let ids): needs = ids.contains(document.nodes[node].id) ? .all : .only([])
      case .everything: needs = .all
      }
      for edge in outgoing[node] {
        needs = needs.union(inputNeeds[edge.target][edge.port] ?? .all)
      }
      guard let kind = registry.kind(named: spec.kind) else { continue }
      // A param fed by an edge (a key list, a formula) may name any column: such a node needs
      // its inputs whole.
      if let demanding = kind as? any ColumnDemandingKind,
        !kind.parameters.contains(where: { inputPorts[node].contains($0.name) })
      {
        for port in inputPorts[node] {
          inputNeeds[node][port] = demanding.columnNeeds(of: port, params: spec.params, outputNeeds: needs)
        }
      }
      if let projecting = kind.asColumnProjectingKind, case .only(let names) = needs,
        let params = projecting.projecting(spec.params, to: names)
      {
        result.nodes[node].data.params = params
      }
    }
    return result
  }

  /// The nodes of `new` whose spec differs from the node of the same id in `old` (what a host
  /// replaces after applying the demand to an edited document).
  public static func changedNodes(from old: FlowDocument, to new: FlowDocument) -> [FlowNode] {
    var previous: [String: NodeSpec] = [:]
    for node in old.nodes { previous[node.id] = node.data }
    return new.nodes.filter { node in previous[node.id].map { $0 != node.data } ?? false }
  }
}
