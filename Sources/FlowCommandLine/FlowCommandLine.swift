import Dispatch
import Foundation
import FlowNodes
import FlowRuntime

/// The `flow` command-line tool as a library, so a host can ship its own `flow` with its own
/// node kinds.
///
/// ```swift
/// import FlowCommandLine
/// import FlowNodes
///
/// var registry = NodeKindRegistry.standard
/// registry.register(MyKind())
/// FlowCommandLine.main(registry: registry)
/// ```
public enum FlowCommandLine {
  /// Runs `flow` with the process's arguments and `registry`, writes its output and exits.
  ///
  /// Commands run on Swift concurrency (`flow calc` drives a `FlowEngine`); this function starts
  /// them in a task and parks the main thread in `dispatchMain()` until the task exits.
  ///
  /// - Parameter registry: the node kinds documents may name (default: the standard ones).
  public static func main(registry: NodeKindRegistry = .standard) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    Task {
      let result = await FlowCommand.main(arguments, context: CommandContext(registry: registry))
      FileHandle.standardOutput.write(Data(result.output.utf8))
      if !result.diagnostics.isEmpty {
        FileHandle.standardError.write(Data((result.diagnostics.joined(separator: "\n") + "\n").utf8))
      }
      exit(result.status.rawValue)
    }
    dispatchMain()
  }
}
