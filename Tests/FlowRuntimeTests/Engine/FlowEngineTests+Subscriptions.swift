import FlowGraph
import FlowNodes
@testable import FlowRuntime
import FlowTestSupport
import Testing

// A subscriber never misses by starting late: `reports` and `values(of:)` yield the latest
// report / current state first whenever iteration begins, then every later one, each with its
// revision.
extension FlowEngineTests {
  /// The calculator with a probe after `twice` that runs the armed hook (once) mid-pass.
  static func tappedCalculator(_ hook: Locked<(@Sendable () -> Void)?>) throws -> (FlowDocument, NodeKindRegistry) {
    var registry = NodeKindRegistry.standard
    registry.register(SynchronousPassTests.Probe(name: "tap") { _ in hook.withLock { $0.take() }?() })
    var document = calculator()
    document.nodes.append(FlowNode(id: "tap", data: NodeSpec(kind: "tap")))
    document.edges.append(
      FlowEdge(
        id: "twice-tap", sourceNodeID: "twice", sourceHandleID: "result", targetNodeID: "tap",
        targetHandleID: "a"))
    return (document, registry)
  }

  /// One subscriber in `subscribersNeverMissAnything`: what it received so far.
  struct Follower {
    var reports: EngineReports.Iterator?
    var values: NodeValues.Iterator?
    var seenReports: [EvaluationReport] = []
    var seenValues: [NodeUpdate] = []
    /// The last completed revision when it subscribed while the engine was idle (its first
    /// element must be that revision's), `nil` if it subscribed during a pass.
    var idleAt: Int?
  }

  // A seeded script of, in any order:
  //   edit x ─ (synchronous pass, or the runner's) ─ …
  //   subscribe (idle) │ subscribe mid-pass (the probe subscribes) │ make a sequence, iterate later
  //   read a follower up to the latest completed revision │ drop a follower (cancel mid-stream)
  //   evaluate()
  // Checked: every follower's first element is the latest report / current state when it
  // subscribed, its completed reports are exactly the reference's from there on (a follower
  // subscribed before anything happened), revisions increase, its last value is the current one.
  // Serialized: a thousand engines at once would starve the engine suites that run beside this
  // one (their time limits), under ThreadSanitizer most of all.
  @Test(.serialized, arguments: 0..<1_000) func subscribersNeverMissAnything(seed: Int) async throws {
    var random = SeededRandom(seed: UInt64(seed))
    let hook = Locked<(@Sendable () -> Void)?>(nil)
    let (document, registry) = try Self.tappedCalculator(hook)
    var options = SynchronousPassTests.synchronous
    options.runsCheapPassesSynchronously = seed % 2 == 0  // odd seeds: every pass on the runner
    let engine = try FlowEngine(document: document, registry: registry, options: options)
    var reference = engine.reports.makeAsyncIterator()  // subscribed before the first pass completed
    var followers: [Follower] = []
    var unstarted: [(EngineReports, NodeValues)] = []
    let midPass = Locked<[(AsyncStream<EvaluationReport>, AsyncStream<NodeUpdate>)]>([])
    var value = 2.0
    var idle = false  // whether no pass can be running or pending (after `evaluate()`)

    func subscribe(_ reports: EngineReports, _ values: NodeValues, readingFirst: Bool) async {
      let last = idle ? engine.lastReport?.revision : nil
      var follower = Follower(reports: reports.makeAsyncIterator(), values: values.makeAsyncIterator(), idleAt: last)
      if let last, readingFirst {
        // Idle: both first elements are buffered already, so `next()` returns at once.
        let report = await follower.reports?.next()
        let update = await follower.values?.next()
        #expect(report?.revision == last && update?.revision == last, "seed \(seed): the latest first")
        #expect(update?.state == (await engine.state(of: "twice")), "seed \(seed): the current state")
        follower.seenReports += report.map { [$0] } ?? []
        follower.seenValues += update.map { [$0] } ?? []
      }
      followers.append(follower)
    }

    for _ in 0..<24 {
      switch random.next() % 8 {
      case 0, 1:
        value += 1
        if random.next() % 3 == 0 {
          hook.withLock {
            $0 = { [core = engine.core] in
              midPass.withLock { $0.append((core.subscribeToReports(), core.subscribeToValues(of: "twice"))) }
            }
          }
        }
        try Self.setNumber(engine.store, "x", value)
        idle = options.runsCheapPassesSynchronously && engine.lastReport?.revision == engine.store.revision
      case 2:
        await engine.evaluate()
        idle = true
      case 3:
        await subscribe(engine.reports, engine.values(of: "twice"), readingFirst: random.next() % 2 == 0)
      case 4:
        unstarted.append((engine.reports, engine.values(of: "twice")))
      case 5:
        if !unstarted.isEmpty {
          let (reports, values) = unstarted.removeFirst()
          await subscribe(reports, values, readingFirst: random.next() % 2 == 0)
        }
      case 6:
        guard !followers.isEmpty else { continue }
        let index = Int(random.next() % UInt64(followers.count))
        try await Self.readToLatest(&followers[index], engine)
      default:
        guard !followers.isEmpty else { continue }
        let index = Int(random.next() % UInt64(followers.count))
        try await Self.readToLatest(&followers[index], engine)
        followers[index].reports = nil  // cancelled mid-stream
        followers[index].values = nil
      }
    }
    hook.withLock { $0 = nil }
    await engine.evaluate()
    for (reports, values) in midPass.withLock({ $0 }) {
      var follower = Follower()
      var reportIterator = reports.makeAsyncIterator()
      var valueIterator = values.makeAsyncIterator()
      // Subscribed during a pass: the previous report is replayed, then that pass's and on.
      while let report = await reportIterator.next() {
        follower.seenReports.append(report)
        if report.revision >= engine.store.revision && !report.wasCancelled { break }
      }
      while let update = await valueIterator.next() {
        follower.seenValues.append(update)
        if update.revision >= engine.store.revision { break }
      }
      followers.append(follower)
    }
    for index in followers.indices where followers[index].reports != nil {
      try await Self.readToLatest(&followers[index], engine)
    }
    let subscribed = engine.core.state.withLock { ($0.reportSubscribers.count, $0.valueSubscribers.count) }
    let live = followers.count(where: { $0.reports != nil }) + 1
    #expect(subscribed.0 == live + midPass.withLock { $0.count }, "dropped iterators unsubscribed")
    engine.shutDown()

    var all: [EvaluationReport] = []
    while let report = await reference.next() { all.append(report) }
    let completed = all.filter { !$0.wasCancelled }.map(\.revision)
    #expect(completed.last == engine.store.revision)
    #expect(all.map(\.revision) == all.map(\.revision).sorted(), "reports in revision order")
    let current = try #require(await engine.state(of: "twice"))
    for follower in followers {
      let revisions = follower.seenReports.filter { !$0.wasCancelled }.map(\.revision)
      guard let first = revisions.first else { continue }
      if let idleAt = follower.idleAt { #expect(first == idleAt, "seed \(seed): the latest report first") }
      let expected = Array(completed.drop { $0 < first }.prefix(revisions.count))
      #expect(revisions == expected, "seed \(seed): no report missed")
      let seen = follower.seenValues.map(\.revision)
      #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed): value revisions increase")
      if let idleAt = follower.idleAt, let firstValue = seen.first {
        #expect(firstValue >= idleAt, "seed \(seed): nothing older than the current state")
      }
      if follower.reports != nil {
        #expect(follower.seenValues.last?.state == current, "seed \(seed): the current state last")
      }
    }
  }

  /// Reads `follower` up to the latest completed revision (waiting for it: a pass that
  /// completes it is published or pending).
  static func readToLatest(_ follower: inout Follower, _ engine: FlowEngine) async throws {
    guard let latest = engine.lastReport?.revision else { return }
    while follower.seenReports.last.map({ $0.revision < latest || $0.wasCancelled }) ?? true {
      guard let report = await follower.reports?.next() else { break }
      follower.seenReports.append(report)
    }
    while follower.seenValues.last.map({ $0.revision < latest }) ?? true {
      guard let update = await follower.values?.next() else { break }
      follower.seenValues.append(update)
    }
  }

  // test:  set x (cheap: published before updateNode returns) ─ Task { for await engine.reports }
  // task:                                                       first element: that edit's report
  @Test func aTaskStartedAfterAnEditGetsThatEditsReport() async throws {
    let engine = try FlowEngine(
      document: Self.calculator(), registry: .standard, options: SynchronousPassTests.synchronous)
    await engine.evaluate()
    for step in 1...50 {
      try Self.setNumber(engine.store, "x", Double(step))
      let revision = engine.store.revision
      let task = Task { () -> Int? in
        for await report in engine.reports { return report.revision }
        return nil
      }
      #expect(await task.value == revision, "step \(step)")
      let values = Task { () -> NodeUpdate? in
        for await update in engine.values(of: "twice") { return update }
        return nil
      }
      let update = await values.value
      #expect(update?.revision == revision && update?.value(of: "result") == .number(2 * (Double(step) + 3)))
    }
    engine.shutDown()
  }

  // reader: let s = engine.reports ─ 3 passes ─ for await (begins) → the latest report first
  @Test func iterationNotReadingThePropertySubscribes() async throws {
    let engine = try FlowEngine(document: Self.calculator(), registry: .standard)
    await engine.evaluate()
    let reports = engine.reports
    let values = engine.values(of: "twice")
    for step in 1...3 {
      try Self.setNumber(engine.store, "x", Double(step))
      await engine.evaluate()
    }
    var iterator = reports.makeAsyncIterator()
    #expect(await iterator.next()?.revision == engine.store.revision)
    var updates = values.makeAsyncIterator()
    #expect(await updates.next() == NodeUpdate(revision: engine.store.revision, state: .value(["result": .number(12)])))
    engine.shutDown()
    #expect(await iterator.next() == nil)
    var late = engine.reports.makeAsyncIterator()
    #expect(await late.next()?.revision == engine.store.revision, "after shutdown: the last report, then the end")
    #expect(await late.next() == nil)
  }

  // reader task: for await engine.reports … ─ cancelled ─ ends, unsubscribed
  @Test func cancellingAReaderTaskEndsItsSubscription() async throws {
    let engine = try FlowEngine(
      document: Self.calculator(), registry: .standard, options: SynchronousPassTests.synchronous)
    await engine.evaluate()
    let started = AsyncStream<Void>.makeStream()
    let reader = Task { () -> [Int] in
      var seen: [Int] = []
      for await report in engine.reports {
        seen.append(report.revision)
        started.continuation.yield()
      }
      return seen
    }
    var signals = started.stream.makeAsyncIterator()
    await signals.next()
    try Self.setNumber(engine.store, "x", 7)
    reader.cancel()
    let seen = await reader.value
    #expect(!seen.isEmpty && zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
    #expect(engine.core.state.withLock { $0.reportSubscribers.isEmpty })
    engine.shutDown()
  }
}
