/// Every param is also an input: the signature of a node together with the params its edges feed.
///
/// A node's own signature (what its kind and params resolve to) lists in `parameterInputs` the
/// params an edge may feed. In a graph, the node has one more input per param an edge feeds,
/// after its own inputs, in the order the edges name them (document order at load, connection
/// order in a store), so that the edge rule resolves those edges like any other. Validation
/// (`ParameterInputRule`) and the store (`StoreState+ParameterInputs.swift`) both make that
/// signature with `fed(by:)`; the engine configures the node to match it.
extension NodeSignature {
  /// The param input named `name`: what an edge into that handle feeds, if it feeds a param.
  public func parameterInput(named name: String) -> PortDeclaration? {
    parameterInputs.first { $0.name == name }
  }

  /// Whether an edge feeds some param of this signature (it has inputs named like a param).
  public var feedsParameters: Bool {
    !parameterInputs.isEmpty && inputs.contains { isParameterInput($0.name) }
  }

  /// The params edges feed in this signature, in input order.
  public var fedParameters: [String] {
    guard !parameterInputs.isEmpty else { return [] }
    return inputs.map(\.name).filter { isParameterInput($0) }
  }

  /// This signature with exactly one input for each param that an edge into one of `handles`
  /// feeds, after the kind's own inputs, in the order first named; inputs for params no handle
  /// names any more are dropped (the param's written value applies again).
  ///
  /// - Parameter handles: the target handles of the edges into the node, in order. A handle
  ///   naming one of the kind's ports or no param is passed over; a param named twice gets one
  ///   input (the single-input rule reports the second edge).
  /// - Returns: the signature, unchanged (sharing its arrays) when no param is fed before or after.
  /// - Complexity: O(*i* + *h* × *p*) for *i* inputs, *h* handles and *p* param inputs (a handful).
  public func fed(by handles: some Sequence<String>) -> NodeSignature {
    guard !parameterInputs.isEmpty else { return self }
    var signature = self
    if feedsParameters { signature.inputs.removeAll { isParameterInput($0.name) } }
    let own = signature.inputs.count
    for handle in handles {
      guard let input = parameterInput(named: handle),
        !signature.inputs[own...].contains(where: { $0.name == handle })
      else { continue }
      signature.inputs.append(input)
    }
    return signature
  }

  private func isParameterInput(_ name: String) -> Bool {
    parameterInputs.contains { $0.name == name }
  }
}
