import Dispatch
import FlowGraph
import FlowHTTP
import FlowRuntime
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flow serve FILE`: the graph, live, in a browser (Reference.md, "`flow serve`").
enum ServeCommand {
  static let defaultPort: UInt16 = 7780

  static let spec = CommandSpec(
    name: "serve", summary: "Show the graph live in a browser, with editable params.",
    positionals: ["FILE"],
    options: [
      OptionSpec(name: "--port", arity: .single, valueName: "N", help: "the port (default 7780; 0 picks a free one)"),
      OptionSpec(
        name: "--host", arity: .single, valueName: "ADDR",
        help: "the address to listen on (default 127.0.0.1; anything else is reachable by others)"),
      OptionSpec(
        name: "--allow-read", arity: .repeated, valueName: "DIR",
        help: "let file nodes read inside DIR too (default: the document's folder only)"),
      OptionSpec(
        name: "--allow-write", arity: .repeated, valueName: "DIR",
        help: "let file nodes write (and read) inside DIR too"),
      ServeTableBudgetOption.spec
    ] + RunLimitOptions.specs + RunCacheOptions.specs,
    positionalHelp: ["the saved graph (a file: Save writes it back, and changes on disk are reloaded)"],
    discussion: """
      Evaluates the graph like 'flow run' (the same file policy and limits) and serves a page
      that draws it with its values and stays current as passes complete. Number, integer, bool
      and text params are editable in place; Save writes the document back (atomically, only
      when asked); changes to the file on disk are applied as a diff. Only requests for
      localhost, 127.0.0.1 or [::1] with the port are answered. Ctrl-C stops it after the
      running pass.
      """)

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String)
    async throws(CommandFailure) -> ExitStatus
  {
    // The handlers are in place before the URL is printed, so a signal sent as soon as the
    // URL appears is never lost or fatal.
    let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let sources = LiveRun.installSignalHandlers { continuation.yield() }
    defer {
      for source in sources { source.cancel() }
      for number in RunInterruption.signals { signal(number, SIG_DFL) }
    }
    let session = try start(arguments, context: context)
    await session.awaitFirstPass()
    // The picture is laid out and drawn before the URL is printed, so the first page is served
    // from the cache (a 1,000-node page's first request does not wait for the layout).
    _ = session.pictureSVG()
    let host = arguments.value("--host") ?? "127.0.0.1"
    context.write("flow serve: http://\(urlHost(host)):\(session.port)/\n")
    var iterator = signals.makeAsyncIterator()
    _ = await iterator.next()
    await session.stop()
    return .success
  }

  /// Loads, validates and evaluates the document and starts serving it; what `run` does before
  /// it waits (tests call this and `ServeSession.stop()`).
  static func start(
    _ arguments: ParsedArguments, context: CommandContext, watchInterval: Duration? = .milliseconds(500)
  )
    throws(CommandFailure) -> ServeSession
  {
    let file = arguments.positionals[0]
    guard file != "-" else {
      throw CommandFailure(.usage, ["flow: serve needs a file (Save writes it back), not standard input"])
    }
    if case .failure(let missing) = ServePageAssets.shared {
      throw CommandFailure(.usage, ["flow: serve: \(missing.message)"])
    }
    let port: UInt16
    if let text = arguments.value("--port") {
      guard let value = UInt16(text) else {
        throw CommandFailure(.usage, ["flow: --port expects 0 to 65535, got '\(text)'"])
      }
      port = value
    } else {
      port = defaultPort
    }
    let host = arguments.value("--host") ?? "127.0.0.1"
    let limits = try RunLimitOptions.limits(arguments)
    var options = EngineOptions(demandDriven: false)
    options.tableMemoryBudget = try ServeTableBudgetOption.budget(arguments)
    try RunLimitOptions.applyProcessWide(arguments)
    let workers = try RunLimitOptions.workers(arguments)
    let document = try DocumentLoading.document(file)
    var registry = context.registry
    registry.environment.limits = limits
    registry.environment.workers = workers
    let configured = try RunCommand.environment(for: file, arguments, registry)
    let path = (FileAccessPolicy.absolutePath(file) as NSString).standardizingPath
    // `--cache DIR`: the first pass serves what the cache holds; passes keep what ran.
    options.cache = try RunCacheOptions.cache(arguments, registry: configured, context: context)
    let engine: FlowEngine
    do {
      // The document's subgraph kinds, its own and imported ones, as `flow run` knows them.
      let imported = try SubgraphImports.sources(
        of: document, folder: configured.environment.documentFolder, path: path,
        policy: configured.environment.fileAccess)
      let store = try FlowStore(catalog: configured, document: document, imported: imported)
      engine = try FlowEngine(
        store: store, registry: configured, options: options,
        liveState: document.liveState)
    } catch {
      throw CommandFailure.load(
        .invalid(DocumentLoading.withSuggestions(error, document: document, registry: context.registry)), file: file)
    }
    if !isLoopback(host) {
      context.warn(
        "flow serve: warning: listening on \(host), not loopback: anyone who can reach it can see the graph and its values"
      )
    }
    let session = ServeSession(file: path, engine: engine, registry: configured)
    do {
      try session.start(host: host, port: port, watchInterval: watchInterval)
    } catch {
      engine.shutDown()
      throw CommandFailure(.usage, ["flow: serve: \(error.message)"])
    }
    return session
  }

  static func isLoopback(_ host: String) -> Bool {
    ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
  }

  static func urlHost(_ host: String) -> String {
    host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
  }
}
