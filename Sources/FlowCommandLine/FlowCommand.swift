import Foundation

/// The `flow` tool: picks the subcommand, runs it, maps failures to stderr and exit statuses.
enum FlowCommand {
  typealias Handler = @Sendable (ParsedArguments, CommandContext, inout String) throws(CommandFailure) -> ExitStatus

  static let commands: [(spec: CommandSpec, handler: Handler)] = [
    (RunCommand.spec, RunCommand.run),
    (ValidateCommand.spec, ValidateCommand.run),
    (NodesCommand.spec, NodesCommand.run),
  ]

  static var usage: String {
    """
    usage: flow <command> [options]

    FlowRuntime evaluates node graphs saved as SwiftFlow documents.

    commands:
    \(commands.map { "  \($0.spec.name.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.spec.summary)" }.joined(separator: "\n"))

    exit status: 0 success, 1 some node failed, 2 unreadable or invalid file, 64 bad usage.
    See 'flow <command> --help'.
    """
  }

  /// Runs `flow` with `arguments` (without the program name).
  ///
  /// - Returns: the exit status, the text for stdout and the lines for stderr.
  static func main(_ arguments: [String], context: CommandContext = CommandContext()) -> (status: ExitStatus, output: String, diagnostics: [String]) {
    guard let name = arguments.first else { return (.usage, "", [usage]) }
    if name == "--help" || name == "-h" || name == "help" { return (.success, usage + "\n", []) }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      return (.usage, "", ["flow: unknown command '\(name)'", usage])
    }
    var output = ""
    let parsed: ParsedArguments
    do { parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), as: command.spec) } catch {
      return (.usage, "", CommandFailure.usage(error).lines)
    }
    if parsed.wantsHelp { return (.success, command.spec.help + "\n", []) }
    do {
      let status = try command.handler(parsed, context, &output)
      return (status, output, [])
    } catch {
      return (error.status, "", error.lines)
    }
  }
}
