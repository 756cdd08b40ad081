import FlowGraph
import FlowRuntime

/// A node whose row formulas use `@name`s: the kind's instance configured with the inputs'
/// values written into its formulas (see `RowFormulaInputs`).
///
/// `instantiate` is what a kind with row formulas calls in its own `instantiate`: without
/// `@name`s it is the kind's configuration as before; with them it checks the formulas with
/// each `@name` read as `null`, adds an input per `@name` after the kind's own, and returns an
/// evaluator that configures the kind again with the values when they change (the last
/// configuration is kept, keyed by the literals, so unchanged values parse nothing).
struct RowFormulaBinding: NodeEvaluator {
  typealias Configure = @Sendable (NodeParameters) throws(NodeConfigurationError) -> NodeInstance

  let parameters: NodeParameters
  let formulaParameters: [String]
  let names: [String]
  let ownInputCount: Int
  let outputCount: Int
  let configure: Configure
  private let last: Locked<(literals: [String], instance: NodeInstance)?>

  /// Configures a node of a kind whose params `formulas` hold row formulas.
  ///
  /// - Parameters:
  ///   - parameters: the node's params.
  ///   - formulas: the params holding row formulas (a string, a list or a record of them).
  ///   - configure: the kind's configuration from params whose formulas hold no `@name`.
  /// - Throws: what `configure` throws for the formulas with `@name`s read as `null`, or a
  ///   problem naming the first formula param when they use more than `RowFormulaInputs.limit`.
  static func instantiate(
    _ parameters: NodeParameters, formulas: [String],
    _ configure: @escaping Configure
  ) throws(NodeConfigurationError) -> NodeInstance {
    var names: [String] = []
    var seen: Set<String> = []
    for text in parameters.strings(in: formulas) where text.utf8.contains(UInt8(ascii: "@")) {
      for name in RowFormulaInputs(text).names where seen.insert(name).inserted { names.append(name) }
    }
    guard !names.isEmpty else { return try configure(parameters) }
    guard names.count <= RowFormulaInputs.limit else {
      throw NodeConfigurationError(
        parameter: formulas[0],
        reason: "uses \(names.count) @names; at most \(RowFormulaInputs.limit) are allowed")
    }
    let checked = try configure(parameters.rewritingStrings(in: formulas) { RowFormulaInputs($0).placeholderText })
    let own = checked.inputs
    if let clash = names.first(where: { name in own.contains { $0.name == name } }) {
      throw NodeConfigurationError(
        parameter: formulas[0], reason: "'@\(clash)' is named like the node's input '\(clash)'")
    }
    let binding = RowFormulaBinding(
      parameters: parameters, formulaParameters: formulas, names: names,
      ownInputCount: own.count, outputCount: checked.outputs.count, configure: configure,
      last: Locked(nil))
    return NodeInstance(
      inputs: own + names.map { InputPort($0, .any, default: .null) }, outputs: checked.outputs,
      evaluator: binding, cost: checked.cost)
  }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    var literals: [String] = []
    literals.reserveCapacity(names.count)
    for (offset, name) in names.enumerated() {
      literals.append(try RowFormulaInputs.literal(inputs[ownInputCount + offset], input: name))
    }
    let instance =
      try last.withLock { entry in entry.flatMap { $0.literals == literals ? $0.instance : nil } }
      ?? bound(literals)
    let own = (0..<ownInputCount).map { inputs[$0] }
    let values = try instance.evaluator.evaluate(own, outputCount: outputCount)
    for index in values.indices { outputs[index] = values[index] }
  }

  /// The kind configured with `literals` in place of the `@name`s.
  private func bound(_ literals: [String]) throws -> NodeInstance {
    let byName = Dictionary(uniqueKeysWithValues: zip(names, literals))
    let rewritten = parameters.rewritingStrings(in: formulaParameters) { text in
      let inputs = RowFormulaInputs(text)
      return inputs.text(with: inputs.names.map { byName[$0] ?? "null" })
    }
    let instance: NodeInstance
    do {
      instance = try configure(rewritten)
    } catch {
      throw NodeError(
        "param '\(error.parameter)' with \(names.map { "@\($0)" }.joined(separator: ", ")) = "
          + "\(literals.joined(separator: ", ")): \(error.reason)")
    }
    last.withLock { $0 = (literals, instance) }
    return instance
  }
}
