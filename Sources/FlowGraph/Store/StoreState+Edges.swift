/// The compact edge record: what `StoreState` keeps of a `FlowEdge` besides its ends.
extension StoreState {
  /// An edge's path type (bits 0–1), selection, whether it has extras, and whether it names its
  /// source and target handles (a named handle is the name of the port it resolved to: `EdgeEndpointRule` matches
  /// handles by port name).
  struct EdgeFlags: Sendable, Hashable {
    var rawValue: UInt8

    static let selected: UInt8 = 1 << 2
    static let namesSourceHandle: UInt8 = 1 << 3
    static let namesTargetHandle: UInt8 = 1 << 4
    /// The edge has a `parentID` or a `label` (in `edgeExtras`).
    static let hasExtra: UInt8 = 1 << 5

    /// The flags of a tombstone.
    static let none = EdgeFlags(rawValue: 0)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ edge: FlowEdge) {
      let path: UInt8 =
        switch edge.pathType {
        case .bezier: 0
        case .straight: 1
        case .smoothStep: 2
        case .simpleBezier: 3
        }
      rawValue =
        path | (edge.isSelected ? Self.selected : 0)
        | (edge.sourceHandleID != nil ? Self.namesSourceHandle : 0)
        | (edge.targetHandleID != nil ? Self.namesTargetHandle : 0)
        | (edge.parentID != nil || edge.label != nil || edge.shape != nil ? Self.hasExtra : 0)
    }

    var pathType: FlowEdge.PathType {
      switch rawValue & 3 {
      case 0: .bezier
      case 1: .straight
      case 2: .smoothStep
      default: .simpleBezier
      }
    }

    func contains(_ flag: UInt8) -> Bool { rawValue & flag != 0 }
  }

  /// The rarely set parts of an edge, kept by slot in `edgeExtras`.
  struct EdgeExtra: Sendable, Hashable {
    var parentID: String?
    var label: String?
    /// The keys the document gave the edge beyond its fields (written back by `export()`).
    var shape: ObjectShape?

    /// The extras of `edge`, or `nil` if it has none.
    init?(_ edge: FlowEdge) {
      guard edge.parentID != nil || edge.label != nil || edge.shape != nil else { return nil }
      parentID = edge.parentID
      label = edge.label
      shape = edge.shape
    }
  }

  /// The live edge in `slot`, rebuilt from its record; `nil` for a tombstone.
  ///
  /// - Complexity: O(1).
  func edge(at slot: Int32) -> FlowEdge? {
    let index = Int(slot)
    let end = ends[index]
    // Only the ids are read: binding the nodes would copy (retain) every field of both.
    guard end.source >= 0, let sourceID = nodes[Int(end.source)]?.id, let targetID = nodes[Int(end.target)]?.id else {
      return nil
    }
    let flags = edgeFlags[index]
    let extra = flags.contains(EdgeFlags.hasExtra) ? edgeExtras[slot] : nil
    var edge = FlowEdge(
      id: edgeIDs[index], sourceNodeID: sourceID,
      sourceHandleID: flags.contains(EdgeFlags.namesSourceHandle)
        ? signatures[Int(end.source)].outputs[Int(end.sourcePort)].name : nil,
      targetNodeID: targetID,
      targetHandleID: flags.contains(EdgeFlags.namesTargetHandle)
        ? signatures[Int(end.target)].inputs[Int(end.targetPort)].name : nil,
      parentID: extra?.parentID, label: extra?.label, pathType: flags.pathType,
      isSelected: flags.contains(EdgeFlags.selected))
    if let shape = extra?.shape { edge.shape = shape }
    return edge
  }

  /// The flags of `edge` attached at `end`.
  ///
  /// - Precondition: each handle the edge names is the name of the port it is attached to.
  func flags(of edge: FlowEdge, ends end: EdgeEnds) -> EdgeFlags {
    precondition(
      edge.sourceHandleID == nil
        || edge.sourceHandleID == signatures[Int(end.source)].outputs[Int(end.sourcePort)].name,
      "Internal inconsistency: edge '\(edge.id)' names a source handle that is not its port's name")
    precondition(
      edge.targetHandleID == nil || edge.targetHandleID == signatures[Int(end.target)].inputs[Int(end.targetPort)].name,
      "Internal inconsistency: edge '\(edge.id)' names a target handle that is not its port's name")
    return EdgeFlags(edge)
  }

  /// Records `edge`, attached at `end`, in `slot` (the next new slot or a tombstone's); the
  /// caller attaches it to the lists.
  mutating func storeEdge(_ edge: FlowEdge, at slot: Int32, ends end: EdgeEnds) {
    let flags = flags(of: edge, ends: end)
    let index = Int(slot)
    if index == ends.count {
      edgeIDs.append(edge.id)
      ends.append(end)
      edgeFlags.append(flags)
    } else {
      edgeIDs[index] = edge.id
      ends[index] = end
      edgeFlags[index] = flags
    }
    edgeExtras[slot] = EdgeExtra(edge)
  }

  /// Replaces the record in live `slot` by `edge` with the same id, attached at `end` (the
  /// caller moves it between the lists).
  mutating func restoreEdge(_ edge: FlowEdge, at slot: Int32, ends end: EdgeEnds) {
    let flags = flags(of: edge, ends: end)
    ends[Int(slot)] = end
    edgeFlags[Int(slot)] = flags
    edgeExtras[slot] = EdgeExtra(edge)
  }

  /// Turns the record in `slot` into a tombstone's.
  mutating func clearEdge(at slot: Int32) {
    let index = Int(slot)
    edgeIDs[index] = ""
    ends[index] = .none
    edgeFlags[index] = .none
    edgeExtras[slot] = nil
  }
}
