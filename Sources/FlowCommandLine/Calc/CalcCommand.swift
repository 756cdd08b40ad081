import Foundation

/// `flow calc`: the interactive calculator, one command per line from a terminal or a pipe.
enum CalcCommand {
  static let spec = CommandSpec(
    name: "calc", summary: "Interactive calculator: create, connect, set, delete and show nodes.",
    positionals: [], options: [],
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

      After each change, every node the change recomputed prints its outputs in evaluation
      order, one '<node>.<port> = <value>' line each ('<node> ! <message>' if it failed). A node
      that ran and produced its previous value again prints it; the nodes behind it that this
      cutoff spared print nothing, nor does anything the change did not reach.
      A rejected command prints 'error: <reason>' on standard error and the session goes on.
      Exit status: 0 when the input ends or after 'quit', whatever the commands did.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) async throws(CommandFailure) -> ExitStatus {
    let session: CalcSession
    do { session = try CalcSession(context: context) } catch {
      throw CommandFailure(.invalidDocument, ["flow: cannot start the calculator: \(error)"])
    }
    let interactive = isatty(0) == 1
    while true {
      if interactive { context.write("> ") }
      guard let line = readLine(strippingNewline: true) else {
        if interactive { context.write("\n") }
        break
      }
      if await session.perform(line) == .quit { break }
    }
    session.shutDown()
    return .success
  }
}
