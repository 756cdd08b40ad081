import FlowRuntime

/// `fallback`: `primary` when it succeeds with a non-null value, otherwise `secondary`. Both are
/// lazy: `secondary` runs only when `primary` fails or is null, and a failure of `primary`
/// is caught (listed in the report's `caught`), not passed on.
struct FallbackNode: StaticNodeKind, LazyNodeEvaluator {
  var name: String { "fallback" }
  var summary: String { "value = primary unless it fails or is null, else secondary (runs only then)" }
  var inputs: [InputPort] {
    [InputPort("primary", .any, default: .null, lazy: true), InputPort("secondary", .any, default: .null, lazy: true)]
  }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .any)] }

  func neededInputs(given inputs: LazyInputs) throws -> [Int] {
    guard inputs.isAvailable(0) else { return [0] }
    if let primary = inputs.value(0), primary != .null { return [0] }
    return [1]
  }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    outputs[0] = inputs[0] != .null ? inputs[0] : inputs[1]
  }
}
