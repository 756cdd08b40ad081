/// Placing a block of nodes between two neighbours in the gapped label space.
///
/// Invariant kept by every function here: `nodeAt[position[n]] == n` for every node `n`, every
/// other label holds `hole`, and the relative order of the nodes already placed never changes
/// (windows are respread in order), so every edge that pointed forward still does.
extension TopologicalOrder {
  /// The most labels the order grows to by extending its end, before relabeling instead.
  var labelLimit: Int { 4 * count + 64 }

  /// Gives the nodes of `block`, listed in order, labels between the nodes placed below
  /// `boundary` and those placed at or above it.
  ///
  /// - Parameters:
  ///   - block: nodes whose old labels are already holes.
  ///   - boundary: the label the block goes before.
  ///   - anchor: an occupied label next to the place (`boundary` or `boundary - 1`).
  /// - Complexity: O(`block.count`) when the holes next to the place suffice; otherwise the
  ///   size of the respread window (amortized O(log² n) per node), or O(n) for a full relabel.
  mutating func place(_ block: [Int32], atBoundary boundary: Int, anchor: Int) {
    let wanted = 2 * block.count
    var gapLow = boundary
    while gapLow > 0 && boundary - gapLow < wanted && nodeAt[gapLow - 1] == Self.hole { gapLow -= 1 }
    var gapHigh = boundary
    while gapHigh < nodeAt.count && gapHigh - boundary < wanted && nodeAt[gapHigh] == Self.hole { gapHigh += 1 }
    if gapHigh == nodeAt.count && gapHigh - gapLow < wanted {
      // The place is at the end: fresh labels cost nothing to make, within a bound.
      let extra = wanted - (gapHigh - gapLow)
      if nodeAt.count + extra <= labelLimit {
        nodeAt.append(contentsOf: repeatElement(Self.hole, count: extra))
        gapHigh += extra
      }
    }
    if gapHigh - gapLow >= block.count {
      assign(block, over: gapLow..<gapHigh)
    } else {
      respread(block, atBoundary: boundary, anchor: anchor)
    }
  }

  /// Finds the smallest aligned window around `anchor` that stays under its density threshold
  /// with the block added, and spreads its nodes and the block evenly over it; relabels
  /// everything if even the whole range is too dense.
  private mutating func respread(_ block: [Int32], atBoundary boundary: Int, anchor: Int) {
    let capacity = nodeAt.count
    let height = max(1, Int.bitWidth - (capacity - 1).leadingZeroBitCount)
    var low = anchor
    var high = anchor + 1
    var occupied = 1
    var level = 0
    while low > 0 || high < capacity {
      level += 1
      let windowLow = (anchor >> level) << level
      let windowHigh = min(windowLow + (1 << level), capacity)
      for label in windowLow..<low where nodeAt[label] != Self.hole { occupied += 1 }
      for label in high..<windowHigh where nodeAt[label] != Self.hole { occupied += 1 }
      low = windowLow
      high = windowHigh
      // Density after the insertion at most 1 - level / (4 × height): 3/4 for the whole range.
      let depth = min(level, height)
      if (occupied + block.count) * 4 * height <= (high - low) * (4 * height - depth) {
        var nodes: [Int32] = []
        swap(&nodes, &spread)
        gather(block, atBoundary: boundary, from: low..<high, into: &nodes)
        for label in low..<high { nodeAt[label] = Self.hole }
        assign(nodes, over: low..<high)
        swap(&nodes, &spread)
        return
      }
    }
    // Everything, in a list of its own: the scratch is not kept at this size.
    var all: [Int32] = []
    all.reserveCapacity(count)
    gather(block, atBoundary: boundary, from: 0..<capacity, into: &all)
    precondition(all.count == count, "Internal inconsistency: \(all.count) of \(count) nodes hold labels")
    nodeAt = [Int32](repeating: Self.hole, count: max(2 * count, 8))
    assign(all, over: 0..<nodeAt.count)
  }

  /// Lists in `nodes` the nodes labelled in `labels`, in order, with `block` at `boundary`.
  private func gather(_ block: [Int32], atBoundary boundary: Int, from labels: Range<Int>, into nodes: inout [Int32]) {
    nodes.removeAll(keepingCapacity: true)
    for label in labels.lowerBound..<boundary where nodeAt[label] != Self.hole { nodes.append(nodeAt[label]) }
    nodes.append(contentsOf: block)
    for label in boundary..<labels.upperBound where nodeAt[label] != Self.hole { nodes.append(nodeAt[label]) }
  }

  /// Labels `nodes`, in order, evenly over the free `labels` (at least one label per node).
  private mutating func assign(_ nodes: [Int32], over labels: Range<Int>) {
    let total = nodes.count
    let size = labels.count
    isIdentity = false
    for (index, node) in nodes.enumerated() {
      let label = labels.lowerBound + ((2 * index + 1) * size) / (2 * total)
      nodeAt[label] = node
      position[Int(node)] = Int32(label)
    }
  }
}
