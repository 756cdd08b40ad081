import Foundation
import FlowNodes
import FlowRuntime

/// What every `flow` command runs with: the node kinds it knows, and where it writes as it
/// goes (interactive commands and warnings cannot wait for the command to finish).
struct CommandContext: Sendable {
  /// The kinds documents may name; `NodeKindRegistry.standard` unless a host adds its own.
  var registry: NodeKindRegistry
  /// Writes text to standard output now (`flow calc`'s results and prompt).
  var write: @Sendable (String) -> Void
  /// Writes one line to standard error now (warnings, `flow calc`'s `error:` lines).
  var warn: @Sendable (String) -> Void

  init(registry: NodeKindRegistry = .standard,
       write: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
       warn: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
    self.registry = registry
    self.write = write
    self.warn = warn
  }

  /// The names of the kinds, for suggestions.
  var kindNames: [String] { registry.allKinds.map(\.name) }
}
