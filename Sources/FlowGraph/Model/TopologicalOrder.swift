/// A topological order of a DAG kept up to date under edge insertions: a two-way search that
/// moves the smaller side, over gapped labels.
///
/// **Labels.** `position[node]` is the node's *label*: labels are distinct, lie in
/// `0..<labelCapacity`, and every edge `u → v` has `position[u] < position[v]`.
/// `nodeAt[label]` is the node with that label, or `TopologicalOrder.hole`. Labels are *gapped*
/// (`labelCapacity >= count`): holes leave room to place nodes between two others without
/// shifting anything. An order made with `init(validOrder:)` or `appendNode()` starts dense
/// (no holes); holes appear when the order first needs room.
///
/// **Inserting `x → y`.** If `position[x] < position[y]` nothing changes. Otherwise the
/// affected region lies between the two labels: δF, the nodes reachable from `y` placed before
/// `x`, and δB, the nodes reaching `x` placed after `y`. Either side alone repairs the order:
/// δB, kept in its relative order, can go immediately before `y`, or δF immediately after `x`
/// (every other edge into or out of the moved set already points the right way). Two searches,
/// forward from `y` and backward from `x`, advance one node at a time, alternately; the first
/// to finish is the side that moves, so the cost is proportional to the *smaller* side and its
/// edges, in the spirit of Haeupler et al.'s two-way search. Pearce–Kelly, used before, moved
/// both sides over the pool of their labels: a new node wired into an early node then moved
/// every descendant of that node (~100k nodes in `flow-bench W6`), while here the new node alone
/// moves. A node reached by both searches, or the other endpoint reached, is a cycle; it is
/// found exactly and before anything moves, so a refused edge leaves the order unchanged.
///
/// **Placing.** Dense positions cannot place one node before an early node without shifting
/// every node in between, hence gaps. A block of `k` nodes goes into the holes next to its
/// place when there are `k` of them. Otherwise the smallest aligned window of labels around the
/// place whose density after the insertion stays under a threshold (falling from 1 for small
/// windows to 3/4 for the whole range) is spread out evenly — list labeling after Itai, Konheim
/// and Rodeh, amortized O(log² n) relabels per placed node. When even the whole range is too
/// dense, every node is relabeled over `2 × count` labels: O(n), after which only appends can
/// fill the range again, so it is amortized over Ω(n) appends. `labelCapacity` stays below
/// `4 × count + 64`.
///
/// Searches and relabeling use explicit worklists and flat arrays; no recursion. Removing an
/// edge never invalidates the order; a removed node keeps its label as an isolated placeholder.
///
/// References: B. Haeupler, T. Kavitha, R. Mathew, S. Sen, R. E. Tarjan, "Incremental Cycle
/// Detection, Topological Ordering, and Strong Component Maintenance", ACM TALG 8(1) (2012);
/// M. A. Bender, R. Cole, E. D. Demaine, M. Farach-Colton, J. Zito, "Two Simplified Algorithms
/// for Maintaining Order in a List", ESA 2002; D. J. Pearce, P. H. J. Kelly, "A Dynamic
/// Topological Sort Algorithm for Directed Acyclic Graphs", ACM JEA 11 (2006).
public struct TopologicalOrder: Sendable {
  /// The `nodeAt` entry of a label no node holds.
  public static let hole: Int32 = -1

  /// `position[node]`: the node's label, its place in the order.
  public internal(set) var position: [Int32] = []
  /// The inverse of `position`: `nodeAt[label]` is the node with that label, or `hole`.
  public internal(set) var nodeAt: [Int32] = []
  /// `visitStamp[node] == stamp` marks a node reached by the current search.
  var visitStamp: [UInt32] = []
  var stamp: UInt32 = 0
  /// Search links: in the forward search, the node a node was reached from; in the backward
  /// search, the node it leads to (towards the new edge's source). -1 at the roots.
  var link: [Int32] = []
  /// The nodes each search reached, in the order reached (also their worklists).
  var forwardSet: [Int32] = []
  var backwardSet: [Int32] = []
  /// Scratch for respreading a window of labels.
  var spread: [Int32] = []
  /// Whether every node's label is its index (`position[n] == n`), as for a document listed in
  /// a valid order and not reordered since: an engine then skips the label lookups.
  public internal(set) var isIdentity = true

  public init() {}

  /// An order over `order.count` nodes, given as node indices listed in a valid order.
  public init(validOrder order: [Int32]) {
    nodeAt = order
    position = [Int32](repeating: 0, count: order.count)
    for (place, node) in order.enumerated() { position[Int(node)] = Int32(place) }
    isIdentity = order.indices.allSatisfy { order[$0] == Int32($0) }
    visitStamp = [UInt32](repeating: 0, count: order.count)
    link = [Int32](repeating: -1, count: order.count)
  }

  /// The number of nodes.
  public var count: Int { position.count }

  /// The number of labels: every label is below it. Size anything indexed by label with it.
  public var labelCapacity: Int { nodeAt.count }

  /// The nodes in order, without holes.
  public var orderedNodes: [Int32] { nodeAt.filter { $0 != Self.hole } }

  /// Places a new node (index `count`) last.
  public mutating func appendNode() {
    let node = Int32(position.count)
    if nodeAt.count != position.count { isIdentity = false }
    position.append(Int32(nodeAt.count))
    nodeAt.append(node)
    visitStamp.append(0)
    link.append(-1)
  }

  /// Updates the order for a new edge `source → target`, or finds the cycle it would close.
  ///
  /// - Returns: `nil` if the edge keeps the graph acyclic (the order now respects it);
  ///   otherwise the cycle's nodes in edge order, starting with `source` (the order is unchanged).
  /// - Complexity: O(*s* log *s* + edges of the searched nodes) plus amortized relabeling, where
  ///   *s* is the size of the smaller affected side (within a factor of two: both searches
  ///   advance in lockstep), not of the graph.
  public mutating func insertEdge(from source: Int32, to target: Int32, in graph: some TopologicalAdjacency) -> [Int32]?
  {
    if source == target { return [source] }
    let lower = position[Int(target)]
    let upper = position[Int(source)]
    if upper < lower { return nil }
    nextStamp()
    let forwardMark = stamp
    nextStamp()
    let backwardMark = stamp
    forwardSet.removeAll(keepingCapacity: true)
    backwardSet.removeAll(keepingCapacity: true)
    visitStamp[Int(target)] = forwardMark
    link[Int(target)] = -1
    forwardSet.append(target)
    visitStamp[Int(source)] = backwardMark
    link[Int(source)] = -1
    backwardSet.append(source)

    var forwardNext = 0
    var backwardNext = 0
    // A forward-reached node followed by a backward-reached one along an edge: a cycle.
    var meeting: (forwardEnd: Int32, backwardEnd: Int32)?
    while meeting == nil {
      if forwardNext == forwardSet.count {
        moveForwardSet(after: source)
        return nil
      }
      let node = forwardSet[forwardNext]
      forwardNext += 1
      graph.forEachSuccessor(of: node) { successor in
        guard meeting == nil else { return }
        let index = Int(successor)
        if visitStamp[index] == backwardMark {
          meeting = (node, successor)
        } else if visitStamp[index] != forwardMark && position[index] < upper {
          visitStamp[index] = forwardMark
          link[index] = node
          forwardSet.append(successor)
        }
      }
      if meeting != nil { break }

      if backwardNext == backwardSet.count {
        moveBackwardSet(before: target)
        return nil
      }
      let later = backwardSet[backwardNext]
      backwardNext += 1
      graph.forEachPredecessor(of: later) { predecessor in
        guard meeting == nil else { return }
        let index = Int(predecessor)
        if visitStamp[index] == forwardMark {
          meeting = (predecessor, later)
        } else if visitStamp[index] != backwardMark && position[index] > lower {
          visitStamp[index] = backwardMark
          link[index] = later
          backwardSet.append(predecessor)
        }
      }
    }
    return cycle(from: source, meeting: meeting!)
  }

  /// The cycle `source → target → … → forwardEnd → backwardEnd → … → source`, listed from
  /// `source` (the two searches' links give both halves).
  private func cycle(from source: Int32, meeting: (forwardEnd: Int32, backwardEnd: Int32)) -> [Int32] {
    var head: [Int32] = []
    var node = meeting.forwardEnd
    while node >= 0 {
      head.append(node)
      node = link[Int(node)]
    }
    var cycle = [source] + head.reversed()
    node = meeting.backwardEnd
    while node != source {
      cycle.append(node)
      node = link[Int(node)]
    }
    return cycle
  }

  /// δF, complete and acyclic: moves it, in its order, to just after `source`.
  private mutating func moveForwardSet(after source: Int32) {
    var block: [Int32] = []
    swap(&block, &forwardSet)
    sortAndFree(&block)
    place(block, atBoundary: Int(position[Int(source)]) + 1, anchor: Int(position[Int(source)]))
    swap(&block, &forwardSet)
  }

  /// δB, complete and acyclic: moves it, in its order, to just before `target`.
  private mutating func moveBackwardSet(before target: Int32) {
    var block: [Int32] = []
    swap(&block, &backwardSet)
    sortAndFree(&block)
    place(block, atBoundary: Int(position[Int(target)]), anchor: Int(position[Int(target)]))
    swap(&block, &backwardSet)
  }

  /// Sorts `block` by label and turns its labels into holes.
  private mutating func sortAndFree(_ block: inout [Int32]) {
    block.sort { position[Int($0)] < position[Int($1)] }
    for node in block { nodeAt[Int(position[Int(node)])] = Self.hole }
  }

  mutating func nextStamp() {
    stamp &+= 1
    if stamp == 0 {
      for index in visitStamp.indices { visitStamp[index] = 0 }
      stamp = 1
    }
  }
}
