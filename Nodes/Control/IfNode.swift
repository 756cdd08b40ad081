import FlowRuntime

/// `if`: `then` when `condition` is true (a non-zero number), else `else`; a null condition
/// takes `else`. `then` and `else` are lazy: only the branch taken runs.
struct IfNode: StaticNodeKind, LazyNodeEvaluator {
  var name: String { "if" }
  var summary: String { "value = then if condition (true, non-zero) else else; only the branch taken runs" }
  var inputs: [InputPort] {
    [
      InputPort("condition", .any, default: .null), InputPort("then", .any, default: .null, lazy: true),
      InputPort("else", .any, default: .null, lazy: true)
    ]
  }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .any)] }

  /// Whether `condition` selects `then`.
  ///
  /// - Throws: `NodeError` for a condition that is neither a bool, a number nor null.
  static func takesThen(_ condition: Value) throws -> Bool {
    switch condition {
    case .bool(let flag): return flag
    case .number(let x): return x != 0
    case .integer(let n): return n != 0
    case .null: return false
    case let other: throw NodeError("the condition must be a bool or a number, not \(other.typeName)")
    }
  }

  func neededInputs(given inputs: LazyInputs) throws -> [Int] {
    [try Self.takesThen(inputs.value(0) ?? .null) ? 1 : 2]
  }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = try Self.takesThen(inputs[0]) ? inputs[1] : inputs[2]
  }
}
