import FlowRuntime

/// `flow serve --table-memory-budget SIZE`: `EngineOptions.tableMemoryBudget` for the served
/// engine (`Documentation/TableMemoryBudget.md`).
enum ServeTableBudgetOption {
  static let spec = OptionSpec(
    name: "--table-memory-budget", arity: .single, valueName: "SIZE",
    help:
      "keep at most SIZE of intermediate tables, e.g. 512M, 2G: the least recently used are dropped and recomputed when needed (default: no limit)"
  )

  /// The largest budget accepted (16 TiB).
  static let maxBytes = 1 << 44

  /// The budget `arguments` ask for, or `nil` (no limit).
  ///
  /// - Throws: a usage error naming the option when the size is not one from 0 to 16T.
  static func budget(_ arguments: ParsedArguments) throws(CommandFailure) -> Int? {
    guard let text = arguments.value(spec.name) else { return nil }
    guard let bytes = RunLimitOptions.size(text), bytes >= 0, bytes <= maxBytes else {
      throw CommandFailure(
        .usage,
        ["flow: --table-memory-budget expects a size from 0 to 16T, such as 512M or 2G, got '\(text.controlEscaped)'"])
    }
    return bytes
  }
}
