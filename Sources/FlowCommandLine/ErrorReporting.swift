import FlowGraph

/// `flow`'s exit statuses (Reference.md, "The `flow` command line").
enum ExitStatus: Int32 {
  case success = 0
  /// The graph was evaluated but some node failed.
  case nodeFailed = 1
  /// The file is unreadable or not a valid document.
  case invalidDocument = 2
  /// Bad command-line usage.
  case usage = 64
  /// Stopped by SIGHUP (128 + 1).
  case hangUp = 129
  /// Stopped by SIGINT, Ctrl-C (128 + 2).
  case interrupted = 130
  /// Stopped by SIGTERM (128 + 15).
  case terminated = 143
}

/// A failure that ends the command: what to print on stderr and the exit status.
struct CommandFailure: Error {
  var status: ExitStatus
  var lines: [String]

  init(_ status: ExitStatus, _ lines: [String]) {
    self.status = status
    self.lines = lines
  }

  static func usage(_ error: UsageError) -> CommandFailure { CommandFailure(.usage, ["flow: \(error.message)"]) }

  /// The diagnostics for a document that failed to load, each naming the file and what is wrong
  /// (control characters of the ids it quotes escaped, `String.controlEscaped`).
  static func load(_ error: DocumentLoadError, file: String) -> CommandFailure {
    switch error {
    case .syntax(let syntax):
      return CommandFailure(
        .invalidDocument,
        ["\(file):\(syntax.line):\(syntax.column): error: invalid JSON: \(syntax.message.controlEscaped)"])
    case .invalid(let invalid):
      // The validator keeps the first problems and counts the rest (bounded output and memory).
      let count = invalid.totalCount
      let more = invalid.unreportedCount
      return CommandFailure(
        .invalidDocument,
        invalid.issues.map { "\(file): error: \($0.message.controlEscaped)" }
          + (more > 0 ? ["\(file): … and \(more) more problem\(more == 1 ? "" : "s")"] : [])
          + ["\(file): \(count) problem\(count == 1 ? "" : "s") found"])
    }
  }
}
