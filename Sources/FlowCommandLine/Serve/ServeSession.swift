import Dispatch
import FlowGraph
import FlowHTTP
import FlowRuntime
import Foundation

/// One `flow serve`: a `FlowEngine` over a `FlowStore` holding the document, the HTTP server
/// answering the page, and the watcher reloading the file as a diff.
///
/// Every completed pass (a `FlowEngine.reports` element) becomes one server-sent event
/// (`ServeEvent`) with the values of the nodes that ran, the cut-off, failed and pending
/// nodes, the params of nodes edited since, and the live sources' counts. The store's changes
/// are observed to know which nodes' params changed and when the picture must be laid out
/// again (`structure`). Edits go through the store, so they are validated as any store update
/// and undo/redo are the store's.
///
/// Invariants: `state` is the session's one lock, and only touched under it; what a transition
/// of its `life` returns is done outside it; the picture cache is tagged with the
/// `structure` it was drawn for; nothing a request carries reaches the file system except
/// through Save, which writes only the served file, atomically.
final class ServeSession: Sendable {
  /// What the session keeps between passes and requests.
  struct State: Sendable {
    var snapshot: GraphEvaluator?
    var revision = 0
    var lastReport: EvaluationReport?
    /// Bumped when nodes or edges come or go, or a node's ports may have changed.
    var structure = 0
    var picture: (structure: Int, svg: String)?
    /// Each node's value shape as `picture` drew it (`ServeSession.shape(of:in:)`).
    var drawnShapes: [String: [Int]] = [:]
    var specs: [String: NodeSpec] = [:]
    /// Each node the page moved, with its position before its first move (`ServeSession.move`).
    var movedFrom: [String: CGPoint] = [:]
    /// Starting, serving or stopping, with what the session must stop.
    var life = ServeSessionLife()
    var isStopping: Bool { life.phase == .stopping }
  }

  let file: String
  let engine: FlowEngine
  let registry: NodeKindRegistry
  let token: String
  /// The clock the file watcher polls on (a test may pass a manual one).
  let clock: any Clock<Duration>
  let state = Locked(State())

  /// The port the server listens on.
  var port: UInt16 { state.withLock { $0.life.server?.port } ?? 0 }

  init(
    file: String, engine: FlowEngine, registry: NodeKindRegistry, clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.file = file
    self.clock = clock
    self.engine = engine
    self.registry = registry
    token = Self.randomToken()
    let nodes = engine.store.nodes
    state.withLock { state in
      state.specs = Dictionary(nodes.map { ($0.id, $0.data) }, uniquingKeysWith: { first, _ in first })
    }
  }

  /// Starts following the engine and the store, and serves on `host`:`port`.
  ///
  /// - Throws: the server's error when the address cannot be bound.
  func start(
    host: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), watchInterval: Duration? = .milliseconds(500)
  )
    throws(HTTPServerError)
  {
    let reports = engine.reports
    let observed = engine.store.observe { [weak self] change in self?.storeChanged(change) }
    let follow = Task { [weak self, engine] in
      for await report in reports {
        guard !report.wasCancelled else { continue }
        let snapshot = await engine.evaluatorSnapshot()
        guard let self else { return }
        self.passCompleted(report, snapshot: snapshot)
      }
    }
    perform(state.withLock { $0.life.following(observed.observation, task: follow) })
    var configuration = HTTPServer.Configuration(host: host, port: port, limits: limits)
    if !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
      configuration.allowedHosts.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
    }
    let server = try HTTPServer(configuration: configuration) { [weak self] request in
      self?.handle(request) ?? .error(503, "the server is stopping")
    }
    let watcher = watchInterval.map { interval in
      ServeFileWatcher(path: file, interval: interval, clock: clock) { [weak self] in self?.reload() }
    }
    perform(state.withLock { $0.life.served(by: server, watcher: watcher) })
  }

  /// Does what a start transition of `life` returned.
  func perform(_ actions: [ServeSessionLife.Action]) {
    for action in actions {
      switch action {
      case .startWatcher(let watcher): watcher.start()
      case .stop(let running): stopAll(running)
      }
    }
  }

  /// Stops what `running` holds, in its order (stopping a stopped watcher does nothing).
  func stopAll(_ running: ServeSessionLife.Running) {
    running.watcher?.stop()
    running.server?.stop()
    running.observation?.cancel()
    for task in running.tasks { task.cancel() }
  }

  /// Waits for the first pass (which may have run before the reports were followed) and keeps
  /// its values.
  func awaitFirstPass() async {
    await settle()
    let snapshot = await engine.evaluatorSnapshot()
    let report = engine.lastReport
    state.withLock { state in
      guard state.snapshot == nil else { return }
      state.snapshot = snapshot
      state.revision = snapshot.revision
      state.lastReport = report
    }
  }

  /// Stops after the running pass: no more reloads, the streams end, the server closes.
  func stop() async {
    let running = state.withLock { $0.life.stop() }
    running.watcher?.stop()  // no reload once stopping, even during the running pass
    await settle()
    stopAll(running)
    engine.shutDown()
  }

  /// Waits for the running pass, if any. A store without nodes has no pass to wait for (an
  /// editor starts from an empty document), so this returns at once for it.
  func settle() async {
    guard !engine.store.nodes.isEmpty else { return }
    _ = await engine.evaluate()
  }

  /// Publishes one event to every page.
  func publish(_ event: JSONValue) {
    let bytes = Array(("data: " + event.serialized(options: []) + "\n\n").utf8)
    state.withLock { $0.life.server }?.publish(bytes)
  }

  /// A completed pass: keep its snapshot and tell the pages.
  func passCompleted(_ report: EvaluationReport, snapshot: GraphEvaluator) {
    // A node whose params changed runs (or is served from the cache) in the next pass, so the
    // params of the nodes that ran or were served (read from the store, which is at least as new as the pass) carry every edit.
    let store = engine.store
    let params = (report.ran + report.fromCache).compactMap { id in
      store.node(id: id).map { JSONMember(key: id, value: .object($0.data.params)) }
    }
    let event = state.withLock { state -> (JSONValue, Int?) in
      if report.revision >= state.revision || state.snapshot == nil {
        state.snapshot = snapshot
        state.revision = report.revision
      }
      state.lastReport = report
      let relayout = Self.needsRelayout(report, snapshot: snapshot, state: &state)
      return (
        ServeEvent.pass(report, snapshot: snapshot, state: state, params: JSONObject(params)),
        relayout ? state.structure : nil
      )
    }
    publish(event.0)
    // The values need other box sizes: the pages fetch the picture laid out again.
    if let structure = event.1 { publish(.object(["structure": .integer(Int64(structure))])) }
  }

  /// A store change: whether the picture must be drawn again; if so the pages are told at once
  /// (the pass's event may reach them first).
  func storeChanged(_ change: FlowStoreChange) {
    let structure = state.withLock { state -> Int? in
      let before = state.structure
      Self.applyToSpecs(change, &state)
      return state.structure != before ? state.structure : nil
    }
    if let structure { publish(.object(["structure": .integer(Int64(structure))])) }
  }

  /// Keeps `specs` in step with the store and bumps `structure` where the picture changes.
  static func applyToSpecs(_ change: FlowStoreChange, _ state: inout State) {
    if let document = change.reloadedDocument {
      state.specs = Dictionary(document.nodes.map { ($0.id, $0.data) }, uniquingKeysWith: { first, _ in first })
      state.structure += 1
      return
    }
    // A definition edit in bulk counts as the per-node replacements it stands for.
    for item in change.expandedItems {
      switch item {
      case .node(.add(let node)):
        state.specs[node.id] = node.data
        state.structure += 1
      case .node(.remove(let id)):
        state.specs[id] = nil
        state.structure += 1
      case .node(.replace(let node)):
        if let old = state.specs[node.id], !changesOnlyScalars(old, node.data) { state.structure += 1 }
        state.specs[node.id] = node.data
      case .edge(.add), .edge(.remove), .edge(.replace):
        state.structure += 1
      case .node(.position):
        // A moved node is drawn where it was put (`ServeSession.placeMoved`).
        state.structure += 1
      case .node(.dimensions), .node(.select), .edge(.select), .subgraphReplaced:
        break
      }
    }
  }

  /// Whether `new` differs from `old` only in number, integer and bool param values (so the
  /// boxes keep their ports and the page can update its fields in place).
  static func changesOnlyScalars(_ old: NodeSpec, _ new: NodeSpec) -> Bool {
    guard old.kind == new.kind, old.label == new.label, Set(old.params.keys) == Set(new.params.keys) else {
      return false
    }
    for member in new.params.members where old.params[member.key] != member.value {
      switch (old.params[member.key], member.value) {
      case (.number?, .number), (.number?, .integer), (.integer?, .number), (.integer?, .integer), (.bool?, .bool):
        continue
      default: return false
      }
    }
    return true
  }

  /// 128 random bits as hex: the token the page carries on every state-changing request.
  static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let word = generator.next() as UInt64
      let text = String(word, radix: 16)
      return String(repeating: "0", count: 16 - text.count) + text
    }.joined()
  }
}
