/// One item's resolutions, read by concrete (non-generic) code compiled in this module: a read
/// through the generic `ItemValues` subscript from another module ran unspecialized, looking up
/// its tuple's metadata at run time on every item of every change (a twentieth of a small edit's
/// pass).
extension ChangeResolutions {
  /// What the store resolved for item `index`: the payload of a node it adds or replaces, the
  /// edge as it was before a removal or replacement, and a fed node's signature.
  package func item(_ index: Int) -> (payload: (any Sendable)?, previousEdge: FlowEdge?, signature: NodeSignature?) {
    (payloads[index], previousEdges[index], signatures[index])
  }

  /// The signature the store resolved for the node item `index` adds or replaces, if edges feed
  /// some of its params.
  package func signature(ofItem index: Int) -> NodeSignature? { signatures[index] }

  /// The edge item `index` removed or replaced, as it was.
  package func previousEdge(ofItem index: Int) -> FlowEdge? { previousEdges[index] }
}
