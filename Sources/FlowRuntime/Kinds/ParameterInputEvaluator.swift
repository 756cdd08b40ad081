import FlowGraph

/// The evaluator of a node some of whose params edges feed (see
/// `NodeKindRegistry.conforming(_:to:spec:)`).
///
/// Its inputs are the kind's own, then one per fed param. Each evaluation reads the fed values,
/// and when they differ from the last ones configures the kind again from the document's params
/// with those values in place (the edge wins; a null value, such as an input whose edge is gone
/// or whose upstream gave null, leaves the param as written); the kind's instance then evaluates
/// on the own inputs. A value that does not fit the param's type, or that the kind rejects, fails the node
/// naming the param. The last configuration is kept, keyed by the fed values, so a pass in which
/// they did not change parses nothing again.
///
/// Invariant: the instance used has exactly the input names the node was validated with (a fed
/// param that changes the inputs, such as an `expression`'s `formula`, fails the node).
struct ParameterInputEvaluator: NodeEvaluator {
  let registry: NodeKindRegistry
  let spec: NodeSpec
  /// The declarations of the fed params, in input order.
  let parameters: [ParameterDeclaration]
  let ownInputNames: [String]
  /// The fed values of the last configuration and its instance (`nil` until the first pass).
  private let last: Locked<(values: [Value], instance: NodeInstance)?>

  init(registry: NodeKindRegistry, spec: NodeSpec, parameters: [ParameterDeclaration], ownInputNames: [String]) {
    self.registry = registry
    self.spec = spec
    self.parameters = parameters
    self.ownInputNames = ownInputNames
    last = Locked(nil)
  }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let own = ownInputNames.count
    let fed = Array(inputs.values[own...])
    let cached = last.withLock { entry in entry.flatMap { $0.values == fed ? $0.instance : nil } }
    let instance = try cached ?? configure(fed)
    try instance.evaluator.evaluate(NodeInputs(Array(inputs.values[..<own])), &outputs)
  }

  /// The kind's instance with the fed values in place of the document's params.
  private func configure(_ fed: [Value]) throws -> NodeInstance {
    var params = spec.params
    for (declaration, value) in zip(parameters, fed) {
      if value.isNull {
        // Not connected (or null upstream): the param as written applies.
        guard params[declaration.name] != nil || !declaration.isRequired else {
          throw NodeError(
            "param '\(declaration.name)' is required (\(declaration.type)), but its input is null "
              + "and the node writes no value for it")
        }
        continue
      }
      guard let fitting = Value(json: value.jsonValue, as: declaration.type) else {
        throw NodeError(
          "param '\(declaration.name)' must be \(declaration.type.article) \(declaration.type), "
            + "found \(value.typeName) \(Self.shown(value)) on its input")
      }
      params[declaration.name] = fitting.jsonValue
    }
    switch registry.configure(NodeSpec(kind: spec.kind, params: params)) {
    case .failure(.unknownKind):
      throw NodeError("unknown kind '\(spec.kind)'")
    case .failure(.invalidParameters(let problems)):
      throw NodeError(problems.map { "param '\($0.parameter)' \($0.reason)" }.joined(separator: "; "))
    case .success(let configured):
      guard configured.inputNames == ownInputNames else {
        throw NodeError(
          "params \(parameters.map { "'\($0.name)'" }.joined(separator: ", ")) from inputs change "
            + "the node's inputs (\(ownInputNames.joined(separator: ", ")) → "
            + "\(configured.inputNames.joined(separator: ", "))); write them in the document")
      }
      let instance = configured.instance
      last.withLock { $0 = (fed, instance) }
      return instance
    }
  }

  /// A short rendering of a value for a message (a table by its size).
  private static func shown(_ value: Value) -> String {
    if case .table(let table) = value { return "(\(table.rowCount) rows)" }
    let text = value.description
    return text.count > 60 ? String(text.prefix(57)) + "…" : text
  }
}
