import Foundation
import FlowNodes
import FlowRuntime

/// What every `flow` command runs with: the node kinds it knows.
struct CommandContext: Sendable {
  /// The kinds documents may name; `NodeKindRegistry.standard` unless a host adds its own.
  var registry: NodeKindRegistry
  /// Whether stderr is a terminal (progress lines are drawn only then).
  var stderrIsTerminal: Bool
  /// Writes to stderr while a command runs (progress, warnings).
  var writeDiagnostic: @Sendable (String) -> Void

  init(registry: NodeKindRegistry = .standard, stderrIsTerminal: Bool = isatty(STDERR_FILENO) != 0,
       writeDiagnostic: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
    self.registry = registry
    self.stderrIsTerminal = stderrIsTerminal
    self.writeDiagnostic = writeDiagnostic
  }
}
