import FlowGraph
import FlowNodes
import FlowRuntime

/// Every param is also an input, and `@name` in row formulas, in a script: an edge into a param
/// or into a row formula's `@name` exports when what feeds it is a **constant** once subgraphs
/// are inlined — a node of a ``SQLConstantKind`` (`number`, `text`), or a subgraph `input` (set by its instance's param,
/// by its `default`, or fed by an edge from a constant), possibly through instances' ports.
///
/// The constant is evaluated as the node would evaluate it (the same configuration, so an
/// integer stays an integer); a fed param then takes its value (the edge wins, the value must
/// fit the param's type), and each `@name` is written into its formulas as a row-formula
/// literal (`RowFormula.binding`), which the translator writes with the dialect's own literal
/// quoting (``SQLDialect/literal(_:)``): a key list fed to `groupBy.by` becomes its identifiers,
/// a hostile string one quoted literal. Anything else feeding such an input is refused naming the
/// node and the input; `script(for:nodes:)` reports every such node at once.
extension SQLCompiler {
  /// The ports through which the compiler reads tables: never params.
  static let tablePorts: Set<String> = ["table", "left", "right", "a", "b", "value"]

  /// Whether a node of `kind` is a constant a scalar input may take (its kind adopts
  /// ``SQLConstantKind``; such a node is not exported itself unless chosen as an output).
  func isConstant(_ kind: String) -> Bool { registry.kind(named: kind) is any SQLConstantKind }

  /// The params node `index` compiles with: fed params replaced by their constants and each
  /// `@name` of its row formulas written in as a literal (an edge, else the node's param of
  /// that name).
  ///
  /// - Throws: ``SQLExportError`` naming the node and the input whose value is not a constant,
  ///   does not fit the param, or is not a scalar a formula can hold.
  /// - Complexity: linear in the node's inputs and formulas (each constant is at most
  ///   `SubgraphLibrary.maximumDepth` forwarding steps away).
  func boundParameters(_ index: Int) throws(SQLExportError) -> JSONObject {
    let node = plan.nodes[index]
    let kind = node.data.kind
    guard !kind.hasPrefix(SubgraphExpander.reservedPrefix), kind != NodeSpec.groupKind,
      let found = registry.kind(named: kind)
    else { return node.data.params }
    let declared = found.parameters
    // The params holding row formulas: what the kind passes to `RowFormulaBinding`.
    let formulas = (found as? any RowFormulaKind)?.rowFormulaParameters ?? []
    let names = RowFormula.inputNames(in: node.data.params, formulas: formulas)
    var params = node.data.params
    var scalars: [String: Value] = [:]
    for (position, edge) in plan.inputs[index].enumerated() {
      guard let port = edge.port, !Self.tablePorts.contains(port) else { continue }
      let declaration = names.contains(port) ? nil : declared.first { $0.name == port }
      guard declaration != nil || names.contains(port) else { continue }
      let value = try constant(edge.source, port: plan.sourcePorts[index][position], into: node.id, input: port)
      guard let declaration else {
        scalars[port] = value
        continue
      }
      if value.isNull {
        guard !declaration.isRequired else {
          throw SQLExportError(
            node: node.id, "param '\(port)' is required (\(declaration.type)), but its input is null")
        }
        params[port] = nil
        continue
      }
      guard let fitting = Value(json: value.jsonValue, as: declaration.type) else {
        throw SQLExportError(
          node: node.id, "param '\(port)' must be of type \(declaration.type), found \(value.typeName) on its input")
      }
      params[port] = fitting.jsonValue
    }
    guard !names.isEmpty else { return params }
    let written = node.data.params
    do {
      return try RowFormula.binding(params, formulas: formulas) { name in
        scalars[name] ?? written[name].flatMap { Value(json: $0, as: .any) } ?? .null
      }
    } catch {
      throw SQLExportError(node: node.id, "\(error)")
    }
  }

  /// The value output `port` of node `source` gives, when it is a constant.
  ///
  /// - Throws: naming `target` and its `input` when the value is not a constant.
  private func constant(_ source: Int, port: String?, into target: String, input: String) throws(SQLExportError)
    -> Value
  {
    var current = source
    var currentPort = port
    // Each step goes one instance out or in: as many steps as the nesting is deep.
    for _ in 0...plan.nodes.count {
      let node = plan.nodes[current]
      switch node.data.kind {
      case SubgraphExpander.inputKind where !plan.inputs[current].isEmpty:
        (current, currentPort) = (plan.inputs[current][0].source, plan.sourcePorts[current][0])
        continue
      case SubgraphExpander.instanceKind:
        let inputs = plan.inputs[current]
        guard let position = inputs.firstIndex(where: { $0.port == currentPort }) ?? (inputs.count == 1 ? 0 : nil)
        else {
          throw SQLExportError(
            node: target, "input '\(input)' comes from instance '\(node.id)', whose output is not connected inside")
        }
        (current, currentPort) = (inputs[position].source, plan.sourcePorts[current][position])
        continue
      case let kind where kind == SubgraphExpander.inputKind || isConstant(kind):
        guard case .success(let configured) = registry.configure(node.data) else {
          throw SQLExportError(node: target, "input '\(input)' comes from '\(node.id)', whose params do not configure")
        }
        do {
          return try configured.instance.evaluator.evaluate(
            configured.unconnectedInputs, outputCount: configured.instance.outputs.count)[0]
        } catch {
          throw SQLExportError(node: target, "input '\(input)' comes from '\(node.id)': \(error)")
        }
      default:
        throw SQLExportError(
          node: target,
          "input '\(input)' comes from '\(node.id)' (\(node.data.kind)), which is not a constant; only a constant "
            + "(a number or text node, or a subgraph input set to one) exports, as a SQL literal")
      }
    }
    preconditionFailure("Internal inconsistency: a cycle of subgraph boundaries feeding node '\(target)'")
  }
}
