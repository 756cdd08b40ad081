import Foundation
import FlowNodes
import FlowRuntime

/// What every `flow` command runs with: the node kinds it knows, and where it writes as it
/// goes (interactive commands and warnings cannot wait for the command to finish).
struct CommandContext: Sendable {
  /// The kinds documents may name; `NodeKindRegistry.standard` unless a host adds its own.
  var registry: NodeKindRegistry
  /// Whether stderr is a terminal (progress lines are drawn only then).
  var stderrIsTerminal: Bool
  /// Writes text to standard output now (`flow calc`'s results and prompt), with control
  /// characters other than line feeds escaped (`String.escapingControls(keepingLineFeeds:)`).
  func write(_ text: String) { writeOutput(text.escapingControls(keepingLineFeeds: true)) }
  /// `write(_:)` as a closure, for printers that run on other tasks (`flow run --follow`).
  var writeOutputNow: @Sendable (String) -> Void {
    let write = writeOutput
    return { write($0.escapingControls(keepingLineFeeds: true)) }
  }
  /// Writes one line to standard error now (warnings, `flow calc`'s `error:` lines), with
  /// control characters escaped (`String.controlEscaped`).
  func warn(_ line: String) { writeWarning(line.controlEscaped) }
  /// `warn(_:)` as a closure, for work that warns from other tasks (the run cache).
  var warningWriter: @Sendable (String) -> Void {
    let write = writeWarning
    return { write($0.controlEscaped) }
  }
  /// Writes to stderr while a command runs (progress lines, which draw with `\r` and ANSI
  /// escapes), as given (no newline added): callers escape what they quote.
  var writeDiagnostic: @Sendable (String) -> Void
  private let writeOutput: @Sendable (String) -> Void
  private let writeWarning: @Sendable (String) -> Void

  init(
    registry: NodeKindRegistry = .standard, stderrIsTerminal: Bool = isatty(STDERR_FILENO) != 0,
    write: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
    warn: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
    writeDiagnostic: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.registry = registry
    self.stderrIsTerminal = stderrIsTerminal
    self.writeOutput = write
    self.writeWarning = warn
    self.writeDiagnostic = writeDiagnostic
  }

  /// The names of the kinds, for suggestions.
  var kindNames: [String] { registry.allKinds.map(\.name) }
}
