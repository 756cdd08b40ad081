import FlowNodes
import FlowRuntime

/// What every `flow` command runs with: the node kinds it knows.
struct CommandContext: Sendable {
  /// The kinds documents may name; `NodeKindRegistry.standard` unless a host adds its own.
  var registry: NodeKindRegistry

  init(registry: NodeKindRegistry = .standard) { self.registry = registry }
}
