import FlowGraph

extension FlowEngine {
  /// An engine over `store` with the kinds the store was made with (its catalog), so the
  /// catalog is not named twice.
  ///
  /// ```swift
  /// let store = try FlowStore(catalog: NodeKindRegistry.standard, document: document)
  /// let engine = try FlowEngine(store: store)
  /// ```
  ///
  /// - Throws: `GraphValidationError` when the store's catalog is no `NodeKindRegistry` (a
  ///   store made with another catalog: use `init(store:registry:…)`).
  public convenience init(
    store: FlowStore, options: EngineOptions = EngineOptions(),
    policy: SupersessionPolicy = .replaceRunningPass, clock: any Clock<Duration> = ContinuousClock(),
    liveState: JSONObject = JSONObject(), observing: [String] = []
  ) throws(GraphValidationError) {
    guard let registry = store.catalog as? NodeKindRegistry else {
      throw GraphValidationError(issues: [
        GraphIssue(
          .unknownKind, "the store's catalog (\(type(of: store.catalog))) is no NodeKindRegistry: pass the registry")
      ])
    }
    try self.init(
      store: store, registry: registry, options: options, policy: policy, clock: clock, liveState: liveState,
      observing: observing)
  }

  /// An engine for the document file at `path` (`FlowDocument(contentsOf:)`): its file nodes'
  /// relative paths resolve against the file's folder, which they may read and write.
  ///
  /// ```swift
  /// let engine = try FlowEngine(contentsOf: "Examples/penguins/report.flow.json", registry: .standard)
  /// await engine.evaluate()
  /// ```
  ///
  /// - Throws: `DocumentFileError` when the file cannot be read or holds no valid document;
  ///   `GraphValidationError` listing every validation problem of the graph.
  public convenience init(
    contentsOf path: String, registry: NodeKindRegistry, options: EngineOptions = EngineOptions(),
    policy: SupersessionPolicy = .replaceRunningPass, clock: any Clock<Duration> = ContinuousClock(),
    observing: [String] = []
  ) throws {
    try self.init(
      document: FlowDocument(contentsOf: path), registry: registry, options: options, policy: policy,
      clock: clock, observing: observing)
  }
}

extension NodeKindRegistry {
  /// This registry with `document`'s folder (`FlowDocument.folder`, set when it was read from a
  /// file) as the document folder of its environment, readable and writable besides what the
  /// environment's policy allows; unchanged for a document made in memory.
  public func locating(_ document: FlowDocument) -> NodeKindRegistry {
    guard let folder = document.folder, folder != environment.documentFolder else { return self }
    var registry = self
    registry.environment.documentFolder = folder
    var access = registry.environment.fileAccess
    if !access.readableRoots.contains(folder) { access.readableRoots.append(folder) }
    if !access.writableRoots.contains(folder) { access.writableRoots.append(folder) }
    registry.environment.fileAccess = access
    return registry
  }
}

extension FlowEngine {
  /// The outputs of node `id` in the order its kind declares its ports (waits if a pass is
  /// running); `nil` like `outputs(of:)` (a failed, pending or not computed node, an unknown id).
  ///
  /// ```swift
  /// for (port, value) in await engine.orderedOutputs(of: "stats") ?? [] { print(port, value) }
  /// ```
  public func orderedOutputs(of id: String) async -> [(port: String, value: Value)]? {
    await core.read { $0.portValues(of: id) }
  }

  /// Every node's results at one revision: a copy of the evaluator as of the last completed
  /// pass (waits if a pass is running), so reading many nodes from it never mixes two passes.
  /// Its `revision` is the revision it holds; read it with `state(of:)`, `outputs(of:)`,
  /// `failures`, `presentNodeIDs`. Taking it is O(1) (the storage is shared until the engine's
  /// next pass writes).
  ///
  /// ```swift
  /// let snapshot = await engine.snapshot()
  /// for id in snapshot.presentNodeIDs { print(id, snapshot.state(of: id) ?? .notComputed) }
  /// ```
  public func snapshot() async -> GraphEvaluator { await core.read { $0 } }
}
