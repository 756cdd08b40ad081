import FlowGraph

/// Messages in the calculator user's terms: the store names edges by id (`edge 'e3'`), which
/// the user of `flow calc` never typed; they typed `connect a.value b.x`, so a message names
/// the connection as `a.value → b.x`.
extension CalcSession {
  /// `message` with each `edge 'ID'` / `edges 'ID' and 'ID'` naming an edge of the store
  /// rewritten as `connection a.value → b.x`, and the edge a `connect` command is adding
  /// (`pending`) as "the connection", the message then starting with the command as typed.
  func inUserTerms(_ message: String, pending: (edge: FlowEdge, command: String)? = nil) -> String {
    var result = ""
    var rest = Substring(message)
    var previousWasEdge = false
    while let quote = rest.firstIndex(of: "'") {
      let before = rest[..<quote]
      let afterQuote = rest.index(after: quote)
      guard let close = rest[afterQuote...].firstIndex(of: "'") else { break }
      let id = String(rest[afterQuote..<close])
      let namesEdge = before.hasSuffix("edge ") || before.hasSuffix("edges ") || (previousWasEdge && before == " and ")
      if namesEdge, let pending, id == pending.edge.id, before.hasSuffix("edge ") {
        result += before.dropLast("edge ".count) + "the connection"
        previousWasEdge = false
      } else if namesEdge, let described = describeEdge(id) {
        var prefix = String(before)
        if prefix.hasSuffix("edges ") {
          prefix.removeLast("edges ".count)
          prefix += "connections "
        } else if prefix.hasSuffix("edge ") {
          prefix.removeLast("edge ".count)
          prefix += "connection "
        }
        result += prefix + described
        previousWasEdge = true
      } else {
        result += rest[...close]
        previousWasEdge = false
      }
      rest = rest[rest.index(after: close)...]
    }
    let rewritten = result + rest
    guard let pending else { return rewritten }
    let sentence = rewritten.hasPrefix("the connection") ? "t" + rewritten.dropFirst() : rewritten
    return pending.command + ": " + sentence
  }

  /// `a.value → b.x` for edge `id`, naming ports as the user would type them.
  func describeEdge(_ id: String) -> String? {
    guard let edge = store.edge(id: id) else { return nil }
    func port(_ nodeID: String, _ handle: String?, outputs: Bool) -> String {
      if let handle { return "\(nodeID).\(handle)" }
      guard let node = store.node(id: nodeID), let signature = signature(of: node) else { return nodeID }
      let ports = outputs ? signature.outputs.map(\.name) : signature.inputs.map(\.name)
      return ports.count == 1 ? "\(nodeID).\(ports[0])" : nodeID
    }
    return port(edge.sourceNodeID, edge.sourceHandleID, outputs: true) + " → "
      + port(edge.targetNodeID, edge.targetHandleID, outputs: false)
  }
}
