import FlowGraph
import FlowNodes
import FlowRuntime

/// `flow run`'s streaming options (`Documentation/Streaming.md`): by default a one-shot run
/// that prints the sinks executes each chain `readCSV → filter/derive/select… → [groupBy | writeCSV]`
/// whose intermediate tables nobody sees morsel by morsel (`StreamingPlan`); `--no-streaming`
/// runs every node on whole tables; `--morsel-bytes SIZE` sets how much of the file a morsel
/// reads (tests force small ones).
enum StreamingOptions {
  static let specs = [
    OptionSpec(
      name: "--no-streaming", arity: .flag,
      help: "run every node on whole tables (no chain streams morsel by morsel)"),
    OptionSpec(
      name: "--morsel-bytes", arity: .single, valueName: "SIZE",
      help: "bytes of the file a streamed chain reads at a time, e.g. 64K, 32M (default 16M per core)")
  ]

  /// The largest `--morsel-bytes` (a morsel is one buffer in memory).
  static let maxMorselBytes = 1 << 30

  /// The default morsel: the parallel reader's block (16 MiB per worker of `workers`).
  static func defaultMorselBytes(workers: Int) -> Int { (16 << 20) * max(1, workers) }

  /// The plan for a run with `arguments`, or `nil` when nothing streams: `--no-streaming`,
  /// `--live`, `--all` (they print or watch every table), `--trace` (a trace shows each node's
  /// own span; a streamed chain's nodes interleave), or no chain. A `--node` may end a chain,
  /// never sit inside one.
  static func plan(
    _ document: FlowDocument, registry: NodeKindRegistry,
    _ arguments: ParsedArguments
  ) throws(CommandFailure) -> StreamingPlan? {
    var morselBytes = defaultMorselBytes(workers: registry.environment.workers)
    if let text = arguments.value("--morsel-bytes") {
      guard let bytes = RunLimitOptions.size(text), bytes > 0, bytes <= maxMorselBytes else {
        throw CommandFailure(
          .usage, ["flow: --morsel-bytes expects a size from 1 byte to 1G, such as 64K or 32M, got '\(text)'"])
      }
      morselBytes = bytes
    }
    if arguments.has("--no-streaming") || arguments.has("--live") || arguments.has("--all")
      || arguments.value("--trace") != nil
    {
      return nil
    }
    return StreamingPlan(
      document: document, registry: registry, morselBytes: morselBytes, observed: Set(arguments.all("--node")))
  }
}
