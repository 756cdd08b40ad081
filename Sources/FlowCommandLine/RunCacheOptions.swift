import FlowGraph
import FlowNodes
import FlowRuntime

/// `flow run`'s and `flow serve`'s cache options (`Documentation/RunCache.md`): `--cache DIR` keeps node outputs
/// between runs in DIR (inside the folders the run may write), `--cache-max SIZE` bounds it,
/// `--cache-verify` adds a digest of each read file's bytes to readers' keys.
enum RunCacheOptions {
  static let specs = [
    OptionSpec(
      name: "--cache", arity: .single, valueName: "DIR",
      help: "keep node outputs in DIR between runs and serve what did not change (e.g. .flow-cache beside the document)"
    ),
    OptionSpec(
      name: "--cache-max", arity: .single, valueName: "SIZE",
      help: "with --cache: the most the cache may hold, e.g. 500M (default 2G; least recently used go first)"),
    OptionSpec(
      name: "--cache-verify", arity: .flag,
      help: "with --cache: also compare the bytes of files read, not only their size and time")
  ]

  /// The cache of a run (or a served engine) with `arguments`, or `nil` without `--cache`.
  ///
  /// - Parameter registry: the run's registry (its file-access policy says where the cache may
  ///   live).
  static func cache(_ arguments: ParsedArguments, registry: NodeKindRegistry, context: CommandContext)
    throws(CommandFailure) -> FlowCache?
  {
    guard let directory = arguments.value("--cache") else {
      for option in ["--cache-max", "--cache-verify"] where arguments.has(option) || arguments.value(option) != nil {
        throw CommandFailure(.usage, ["flow: \(option) needs --cache DIR"])
      }
      return nil
    }
    if arguments.has("--live") { throw CommandFailure(.usage, ["flow: --cache does not apply to --live runs"]) }
    var maximum = FlowCache.defaultMaximumBytes
    if let text = arguments.value("--cache-max") {
      guard let bytes = RunLimitOptions.size(text), bytes > 0 else {
        throw CommandFailure(.usage, ["flow: --cache-max expects a size such as 500M or 2G, got '\(text)'"])
      }
      maximum = bytes
    }
    do {
      return try FlowCache(
        directory: directory, writableFolders: registry.environment.fileAccess.writableRoots,
        maximumBytes: maximum, verifiesReads: arguments.has("--cache-verify"),
        productVersion: FlowCommand.version, warn: context.warningWriter)
    } catch {
      throw CommandFailure(.usage, ["flow: --cache: \(error.message)"])
    }
  }

  /// A keeper that writes `plan`'s tables as their nodes settle, or `nil` without a cache. The
  /// inner stages of a chain that streamed hold placeholders, not their values: never kept.
  static func keeper(_ plan: RunCachePlan?, shown: [String], streaming: StreamingPlan?) -> RunCacheKeeper? {
    guard let plan else { return nil }
    let chains = streaming?.chains ?? []
    return RunCacheKeeper(plan: plan, shown: shown) { id in
      chains.contains { $0.streamedDurations != nil && $0.nodeIDs.dropLast().contains(id) }
    }
  }
}
