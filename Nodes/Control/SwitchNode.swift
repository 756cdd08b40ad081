import FlowGraph
import FlowRuntime

/// `switch`: the input of the case equal to `key` (`case1`, `case2`, … in the order of the
/// `cases` param), else `default`. Every input but `key` is lazy: only the one chosen runs. An
/// unconnected `default` with no case matching fails the node, naming the key.
struct SwitchNode: NodeKind {
  var sharesConfiguration: Bool { true }
  var name: String { "switch" }
  var summary: String { "value = the input of the case equal to key, else default; only that input runs" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("cases", .list, required: true, summary: "the keys (strings or integers) of case1, case2, …")]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let cases = parameters.list("cases") ?? []
    for item in cases {
      switch item {
      case .string, .integer: continue
      case .number(let x) where x == x.rounded() && abs(x) < 9.0e15: continue
      default:
        throw NodeConfigurationError(
          parameter: "cases", reason: "lists \(item.typeName) values; use strings or integers")
      }
    }
    var inputs = [InputPort("key", .any, default: .null)]
    inputs += cases.indices.map { InputPort("case\($0 + 1)", .any, default: .null, lazy: true) }
    inputs.append(InputPort("default", .any, default: .null, lazy: true))
    return NodeInstance(inputs: inputs, outputs: [PortDeclaration("value", .any)], evaluator: Evaluator(cases: cases))
  }

  struct Evaluator: LazyNodeEvaluator {
    let cases: [Value]

    /// The port the key selects: a case's (1…), or `default`'s (after the cases).
    func port(for key: Value) -> Int {
      for (offset, item) in cases.enumerated() where Self.matches(item, key) { return offset + 1 }
      return cases.count + 1
    }

    /// Whether case `item` equals `key` (an integer equals the same whole number).
    static func matches(_ item: Value, _ key: Value) -> Bool {
      switch (item, key) {
      case (.string(let a), .string(let b)): a == b
      case (.integer, _), (.number, _):
        switch key {
        case .integer, .number: item.numberValue == key.numberValue
        default: false
        }
      default: false
      }
    }

    func neededInputs(given inputs: LazyInputs) throws -> [Int] {
      let key = inputs.value(0) ?? .null
      let chosen = port(for: key)
      if chosen == cases.count + 1 && !inputs.isConnected(chosen) {
        throw NodeError("no case matches the key \(key.description) and default is not connected")
      }
      return [chosen]
    }

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = inputs[port(for: inputs[0])]
    }
  }
}
