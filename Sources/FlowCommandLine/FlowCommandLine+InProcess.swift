import FlowRuntime

extension FlowCommandLine {
  /// Runs `flow` with `arguments` (without the program name) in this process and returns what
  /// it would print and exit with, without writing anything: for `flow-bench`, which times the
  /// exact path of `flow run` (W10).
  package static func runInProcess(_ arguments: [String], registry: NodeKindRegistry) async
    -> (status: Int32, output: String, diagnostics: [String])
  {
    let context = CommandContext(
      registry: registry, stderrIsTerminal: false, write: { _ in }, warn: { _ in },
      writeDiagnostic: { _ in })
    let result = await FlowCommand.main(arguments, context: context)
    return (result.status.rawValue, result.output, result.diagnostics)
  }
}
