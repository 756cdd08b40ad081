import FlowGraph
import FlowNodes
import FlowRuntime
import Foundation

/// The `flow` tool: picks the subcommand, runs it, maps failures to stderr and exit statuses.
enum FlowCommand {
  /// A subcommand: parsed arguments and the context in, text for stdout out (commands that
  /// print as they go write through the context), an exit status or a failure.
  typealias Handler =
    @Sendable (ParsedArguments, CommandContext, inout String) async throws(CommandFailure) -> ExitStatus

  /// `flow --version`.
  static let version = FlowCache.productVersion

  static let commands: [(spec: CommandSpec, handler: Handler)] = [
    (RunCommand.spec, RunCommand.run),
    (ValidateCommand.spec, ValidateCommand.run),
    (NodesCommand.spec, NodesCommand.run),
    (RenderCommand.spec, RenderCommand.run),
    (LayoutCommand.spec, LayoutCommand.run),
    (CalcCommand.spec, CalcCommand.run),
    (ServeCommand.spec, ServeCommand.run),
    (ExportCommand.spec, ExportCommand.run),
    (CacheCommand.spec, CacheCommand.run)
  ]

  static var commandNames: [String] { commands.map(\.spec.name) + ["help"] }

  /// `flow --help`.
  static var usage: String {
    let rows =
      commands.map { CommandSpec.row($0.spec.name, $0.spec.summary) }
      + [CommandSpec.row("help", "Show help for a command.")]
    return """
      OVERVIEW: FlowRuntime evaluates node graphs saved as SwiftFlow documents.

      USAGE: flow <subcommand> [options]

      OPTIONS:
      \(CommandSpec.row("--version", "show the version"))
      \(CommandSpec.row("-h, --help", "show help information"))

      SUBCOMMANDS:
      \(rows.joined(separator: "\n"))

      A FILE argument of - reads the document from standard input.
      Exit status: 0 success, 1 some node failed, 2 unreadable or invalid file, 64 bad usage.

        See 'flow help <subcommand>' for detailed help, 'flow help formulas' for the functions.

      """
  }

  /// Runs `flow` with `arguments` (without the program name).
  ///
  /// Whatever a command prints passes through `String.escapingControls(keepingLineFeeds:)`:
  /// control characters, C1 controls and bidi overrides that reach stdout or stderr — from a
  /// document's ids, kinds, labels or values — are visible escapes (`\u001B`), never raw. The
  /// escapes are valid inside JSON strings, so JSON output stays valid. (Commands escape line
  /// breaks in what they quote themselves, so one value stays one line.)
  ///
  /// - Returns: the exit status, the text for stdout and the lines for stderr.
  static func main(_ arguments: [String], context: CommandContext = CommandContext()) async
    -> (status: ExitStatus, output: String, diagnostics: [String])
  {
    let result = await unescapedMain(arguments, context: context)
    return (
      result.status, result.output.escapingControls(keepingLineFeeds: true),
      result.diagnostics.map { $0.escapingControls(keepingLineFeeds: true) }
    )
  }

  /// `main(_:context:)` before the output is escaped.
  private static func unescapedMain(_ arguments: [String], context: CommandContext) async
    -> (status: ExitStatus, output: String, diagnostics: [String])
  {
    guard let name = arguments.first else { return (.success, usage, []) }
    if name == "--help" || name == "-h" { return (.success, usage, []) }
    if name == "--version" { return (.success, "flow \(version)\n", []) }
    if name == "help" { return help(Array(arguments.dropFirst())) }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      let what = name.hasPrefix("-") ? "option" : "command"
      let hint = Suggestion.hint(for: name, among: name.hasPrefix("-") ? ["--help", "--version"] : commandNames)
      return (.usage, "", ["flow: unknown \(what) '\(name)'\(hint)", "See 'flow --help' for the commands."])
    }
    var output = ""
    let parsed: ParsedArguments
    do { parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), as: command.spec) } catch {
      return (.usage, "", CommandFailure.usage(error).lines)
    }
    if parsed.wantsHelp { return (.success, command.spec.help, []) }
    do {
      let status = try await command.handler(parsed, context, &output)
      return (status, output, [])
    } catch {
      return (error.status, output, error.lines)
    }
  }

  /// `flow help [<subcommand>]`; `flow help formulas` lists the formula functions.
  static func help(_ arguments: [String]) -> (status: ExitStatus, output: String, diagnostics: [String]) {
    guard let name = arguments.first else { return (.success, usage, []) }
    if arguments.count > 1 { return (.usage, "", ["flow: 'flow help' takes one subcommand, got \(arguments.count)"]) }
    if name == "help" { return (.success, usage, []) }
    if name == "formulas" { return (.success, FormulaHelp.text, []) }
    guard let command = commands.first(where: { $0.spec.name == name }) else {
      let hint = Suggestion.hint(for: name, among: commandNames + ["formulas"])
      return (
        .usage, "",
        [
          "flow: unknown command '\(name)'\(hint)",
          "See 'flow --help' for the commands."
        ]
      )
    }
    return (.success, command.spec.help, [])
  }
}
