import FlowNodes
import FlowRuntime
import FlowTestSupport

/// Node kinds for engine tests.
public enum TestKinds {
  /// The standard kinds plus `gated` (passes its input `a` through after the gate opens) and
  /// `slow` (the same, declared expensive, and cancellable: it throws `CancellationError` when
  /// its task is cancelled while it waits).
  public static func registry(gate: Gate) -> NodeKindRegistry {
    var registry = NodeKindRegistry.standard
    registry.register(Gated(gate: gate, name: "gated", cost: .cheap))
    registry.register(Gated(gate: gate, name: "slow", cost: .expensive))
    return registry
  }

  struct Gated: StaticNodeKind {
    let gate: Gate
    let name: String
    let cost: NodeCost
    var summary: String { "result = a, once the test's gate opens" }
    var inputs: [InputPort] { [InputPort("a", .number, default: .number(0))] }
    var outputs: [PortDeclaration] { [PortDeclaration("result", .number)] }

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      guard gate.pass() else { throw CancellationError() }
      outputs[0] = inputs[0]
    }
  }
}
