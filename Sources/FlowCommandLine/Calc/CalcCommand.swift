import Foundation

/// `flow calc`: the interactive calculator, one command per line from a terminal or a pipe.
enum CalcCommand {
  static let spec = CommandSpec(
    name: "calc", summary: "Interactive calculator: create, connect, set, delete and show nodes.",
    positionals: [],
    options: [
      OptionSpec(
        name: "--no-history", arity: .flag,
        help: "neither read nor write the history file (~/.flow_calc_history)")
    ],
    discussion: """
      COMMANDS (one per line; a prompt '> ' is shown when standard input is a terminal):
        node ID KIND [PARAM=JSON]...    add a node (a bare word is a string)
        connect NODE.PORT NODE.PORT     connect an output to an input (replaces its edge)
        disconnect NODE.PORT            remove the edge into an input
        set ID PARAM=JSON...            change params
        delete ID                       remove a node and its edges
        show [ID]                       the graph as commands, or one node in detail
        undo, redo                      step through the changes
        save FILE, load FILE            write or read a document
        help, quit                      (end of input also quits)

      At a terminal the line can be edited: Left/Right, Home/End (Ctrl-A/E), Backspace, Delete,
      Ctrl-K (to the end), Ctrl-U (to the start), Ctrl-W (the word before the cursor), Ctrl-C
      (abandon the line), Ctrl-D (quit on an empty line); Up/Down walk the history, kept in
      ~/.flow_calc_history (the last 1,000 lines) unless --no-history is given.

      After each change, every node the change recomputed prints its outputs in evaluation
      order, one '<node>.<port> = <value>' line each ('<node> ! <message>' if it failed). A node
      that ran and produced its previous value again prints it; the nodes behind it that this
      cutoff spared print nothing, nor does anything the change did not reach.
      A rejected command prints 'error: <reason>' on standard error and the session goes on.
      Exit status: 0 when the input ends or after 'quit', whatever the commands did.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String)
    async throws(CommandFailure) -> ExitStatus
  {
    let session: CalcSession
    do { session = try CalcSession(context: context) } catch {
      throw CommandFailure(.invalidDocument, ["flow: cannot start the calculator: \(error)"])
    }
    if RawTerminal.isTerminal(0) {
      let history = arguments.has("--no-history") ? nil : CalcHistory.defaultPath().map { CalcHistory(path: $0) }
      let reader = CalcLineReader(terminal: RawTerminal(), history: history?.load() ?? [])
      while let line = reader.readLine(prompt: "> ") {
        if await session.perform(line) == .quit { break }
      }
      reader.finish()
      do { try history?.save(reader.editor.history) } catch {
        context.warn("flow: warning: cannot save the history: \(error)")
      }
    } else {
      while let line = readLine(strippingNewline: true) {
        if await session.perform(line) == .quit { break }
      }
    }
    session.shutDown()
    return .success
  }
}
