import FlowGraph

/// `--max-inlined-nodes N`: the most nodes a document's subgraph instances may inline, all
/// together (`SubgraphLibrary.maximumInlinedNodes`, default 1,000,000), for every command that
/// expands a document. A bad value is a usage error (exit status 64).
enum InlinedNodesOption {
  static let spec = OptionSpec(
    name: "--max-inlined-nodes", arity: .single, valueName: "N",
    help: "refuse a document whose subgraph instances would inline more than N nodes (default 1000000)")

  /// Applies the option, if given, before the document is loaded.
  ///
  /// - Throws: a usage failure for a value that is not a whole number ≥ 1.
  static func apply(_ arguments: ParsedArguments) throws(CommandFailure) {
    guard let text = arguments.value("--max-inlined-nodes") else { return }
    guard let count = Int(text), count >= 1 else {
      throw CommandFailure(.usage, ["flow: --max-inlined-nodes expects a whole number ≥ 1, got '\(text)'"])
    }
    SubgraphLibrary.maximumInlinedNodes = count
  }
}
