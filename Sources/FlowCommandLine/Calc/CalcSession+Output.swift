import FlowGraph
import FlowLayout
import FlowRuntime

/// What `flow calc` prints: the pass after a change, and `show`.
extension CalcSession {
  /// Waits for the pass that brings the engine to `revision` and prints, in dependency order,
  /// each node it recomputed: its outputs in port order, or `<node> ! <message>` if it failed
  /// (by its own error or upstream). Nodes the pass did not run print nothing.
  func printPass(after revision: Int) async {
    guard let report = await engine.evaluate(), report.revision >= revision else { return }
    let failed = report.failed
    var touched = Set(report.ran)
    touched.formUnion(failed.keys)
    guard !touched.isEmpty else { return }
    var text = ""
    for id in dependencyOrder() where touched.contains(id) {
      if let message = failed[id] {
        text += RunResult.errorLine(node: id, message: message) + "\n"
        continue
      }
      guard let node = store.node(id: id), let outputs = await engine.outputs(of: id) else { continue }
      for port in signature(of: node)?.outputs.map(\.name) ?? outputs.keys.sorted() {
        if let value = outputs[port] { text += RunResult.line(node: id, port: port, value: value) + "\n" }
      }
    }
    context.write(text)
  }

  /// The store's nodes in its topological order (`FlowStore.nodeIDsInTopologicalOrder`, the
  /// order the engine evaluates in).
  func dependencyOrder() -> [String] { store.nodeIDsInTopologicalOrder }

  /// `show`: the graph as the commands that rebuild it; `show ID`: one node in detail.
  func show(_ arguments: [String]) async throws(CalcError) {
    try expect(arguments, 0, 1, usage: "show [ID]")
    guard let id = arguments.first else {
      var lines: [String] = []
      for node in store.nodes {
        let params = node.data.params.members.map { " \($0.key)=\($0.value.serialized(options: []))" }
        lines.append("node \(node.id) \(node.data.kind)" + params.joined())
      }
      for edge in store.edges {
        lines.append(
          "connect \(edge.sourceNodeID)\(edge.sourceHandleID.map { ".\($0)" } ?? "") "
            + "\(edge.targetNodeID)\(edge.targetHandleID.map { ".\($0)" } ?? "")")
      }
      context.write(lines.isEmpty ? "(no nodes)\n" : lines.joined(separator: "\n") + "\n")
      return
    }
    let node = try requireNode(id)
    var lines = ["\(node.id): \(node.data.kind)" + (node.data.label.map { " \"\($0)\"" } ?? "")]
    let params = node.data.params.members
    lines.append("  params:" + (params.isEmpty ? " none" : ""))
    for member in params { lines.append("    \(member.key) = \(member.value.serialized(options: []))") }
    let configured = try? context.registry.configure(node.data).get()
    let incoming = store.incomingEdges(of: node.id)
    if let instance = configured?.instance, !instance.inputs.isEmpty {
      lines.append("  inputs:")
      for (port, input) in instance.inputs.enumerated() {
        let edge = incoming.first {
          ($0.targetHandleID ?? (instance.inputs.count == 1 ? input.name : nil)) == input.name
        }
        if let edge {
          lines.append("    \(input.name) ← \(edge.sourceNodeID)\(edge.sourceHandleID.map { ".\($0)" } ?? "")")
        } else {
          let set = node.data.params[input.name] != nil
          let value = configured?.unconnectedInputs[port] ?? input.defaultValue
          lines.append("    \(input.name) = \(value) (\(set ? "param" : "default"))")
        }
      }
    }
    if let failure = await engine.failure(of: node.id) {
      lines.append("  failed: \(failure)")
    } else if let instance = configured?.instance, !instance.outputs.isEmpty {
      let outputs = await engine.outputs(of: node.id) ?? [:]
      lines.append("  outputs:")
      for output in instance.outputs {
        lines.append(
          "    \(output.name) = " + (outputs[output.name].map { GraphPicture.summary(of: $0) } ?? "(not computed)"))
      }
    }
    context.write(lines.joined(separator: "\n") + "\n")
  }
}
