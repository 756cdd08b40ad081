import FlowCommandLine
import Foundation
import FlowGraph
import FlowRuntime

#if canImport(Glibc)
import Glibc
import FlowTestSupport
#endif

/// W10: fast load at scale. The W3 generator's shape (1% `source` nodes, then `addmod` nodes
/// with two random earlier inputs) at 1,000,000 nodes (`--quick`: 100,000), written as a compact
/// document file in a temporary folder, then measured in this process:
///
/// - (a) `flow run FILE` as the CLI runs it (read, parse, validate + configure, demand-driven
///   first evaluation, printing the sinks), and the same steps one by one;
/// - (b) `FlowStore` + `FlowEngine` over the parsed document, and the first evaluation;
/// - (c) single-source updates, per recomputed node, at this size against a tenth of it.
///
/// Peak RSS is measured per phase (the high-water mark is reset between phases on Linux).
/// Every checksum is compared with a plain loop over the same generator.
enum W10Scale {
  static let runs = 3

  /// The phases to run: all, or those named by `--phases` (`run,steps,engine,updates`), for
  /// profiling one of them.
  static func selected(_ phase: String) -> Bool { benchSettings.phases?.contains(phase) ?? true }

  static func run() async throws {
    let large = benchSettings.quick ? 100_000 : 1_000_000
    let reference = Reference(nodeCount: large)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-W10-\(getpid()).json").path
    let fileSize: Int
    do {
      let bytes = reference.documentBytes()
      fileSize = bytes.count
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        return Harness.check(false, "W10 cannot write \(path)")
      }
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let size = "\(large) nodes, \(2 * (large - reference.sourceCount)) edges, \(fileSize / 1_000_000) MB compact JSON"
    // The target's steps first: a phase's peak starts from what the process holds, which after
    // an earlier phase includes freed heap the allocator keeps.
    if selected("steps") { try await steps(path, reference, size: size) }
    if selected("run") { try await flowRun(path, reference, size: size) }
    if selected("engine") { try await storeAndEngine(path, reference, size: size) }
    if selected("updates") { try updates(reference) }
  }

  /// (a) `flow run FILE`, exactly as the CLI runs it (its output included).
  static func flowRun(_ path: String, _ reference: Reference, size: String) async throws {
    var samples: [Double] = []
    var peak = 0.0
    var output = ""
    for _ in 0..<runs {
      output = ""
      resetPeakRSS()
      let start = Harness.now()
      let result = await FlowCommandLine.runInProcess(["run", path], registry: BenchKinds.registry)
      samples.append(Double(Harness.now() - start))
      peak = max(peak, peakRSSSinceReset())
      Harness.check(result.status == 0, "W10 flow run exited \(result.status): \(result.diagnostics.prefix(3))")
      output = result.output
    }
    // The sinks are printed `id.port = value`: their sum must match the reference's.
    var sinkSum: Int64 = 0
    var sinkLines = 0
    for line in output.split(separator: "\n") {
      guard let equals = line.lastIndex(of: "="),
        let value = Int64(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
      else { continue }
      sinkSum += value
      sinkLines += 1
    }
    let expected = referenceSinks(reference)
    Harness.check(
      sinkLines == expected.count && sinkSum == expected.sum,
      "W10 flow run printed \(sinkLines) sinks summing \(sinkSum), expected \(expected.count) summing \(expected.sum)")
    Harness.emit(
      workload: "W10", metric: "flow run", Stat(samples), nodes: reference.nodeCount, variant: "in process, as the CLI",
      note: "read + parse + validate + configure + demand-driven first evaluation + print \(sinkLines) sinks; \(size)",
      extra: ["phase_peak_rss_mb": Harness.format(peak, 1)])
  }

  /// The sinks of the reference graph (nodes no edge leaves): how many, and their values' sum.
  static func referenceSinks(_ reference: Reference) -> (count: Int, sum: Int64) {
    var hasSuccessor = [Bool](repeating: false, count: reference.nodeCount)
    for input in reference.inputs { hasSuccessor[Int(input)] = true }
    var count = 0
    var sum: Int64 = 0
    for index in 0..<reference.nodeCount where !hasSuccessor[index] {
      count += 1
      sum += reference.values[index]
    }
    return (count, sum)
  }

  /// (a) the same path step by step, with the first evaluation of every node.
  static func steps(_ path: String, _ reference: Reference, size: String) async throws {
    var read: [Double] = [], parse: [Double] = [], validate: [Double] = [], first: [Double] = [], total: [Double] = []
    var peak = 0.0
    // The high-water mark after each step (max over runs): which step sets the peak.
    var peaks = (read: 0.0, parse: 0.0, validate: 0.0)
    var checksum: Int64 = -1
    for _ in 0..<runs {
      resetPeakRSS()
      let t0 = Harness.now()
      let t1: UInt64
      let document: FlowDocument
      do {
        // Read and parse as `flow run` does (the parser releases the bytes it has passed).
        guard let parse = DocumentLoading.stepwise(path) else { return Harness.check(false, "W10 cannot read \(path)") }
        t1 = Harness.now()
        peaks.read = max(peaks.read, peakRSSSinceReset())
        guard let parsed = parse() else { return Harness.check(false, "W10 cannot parse \(path)") }
        document = parsed
      }
      let t2 = Harness.now()
      peaks.parse = max(peaks.parse, peakRSSSinceReset())
      var evaluator = try GraphEvaluator(validating: document, registry: BenchKinds.registry)
      let t3 = Harness.now()
      peaks.validate = max(peaks.validate, peakRSSSinceReset())
      evaluator.evaluate()
      let t4 = Harness.now()
      peak = max(peak, peakRSSSinceReset())
      read.append(Double(t1 - t0))
      parse.append(Double(t2 - t1))
      validate.append(Double(t3 - t2))
      first.append(Double(t4 - t3))
      total.append(Double(t4 - t0))
      checksum = 0
      for index in 0..<reference.nodeCount {
        checksum += evaluator.integer("n\(index)", index < reference.sourceCount ? "value" : "result")
      }
    }
    Harness.check(checksum == reference.sum, "W10 checksum \(checksum), expected \(reference.sum)")
    let n = reference.nodeCount
    Harness.emit(workload: "W10", metric: "read file", Stat(read), nodes: n)
    Harness.emit(workload: "W10", metric: "parse document", Stat(parse), nodes: n, variant: "FlowDocument(jsonBytes:)")
    Harness.emit(
      workload: "W10", metric: "validate + configure", Stat(validate), nodes: n,
      variant: "GraphEvaluator(validating:registry:)")
    Harness.emit(workload: "W10", metric: "first evaluation", Stat(first), nodes: n, variant: "every node")
    Harness.emit(
      workload: "W10", metric: "load + validate + first evaluation", Stat(total), nodes: n,
      note: "target <= 3 s and <= 600 MB at 1M nodes; \(size)",
      extra: [
        "phase_peak_rss_mb": Harness.format(peak, 1),
        "peak_after_read_mb": Harness.format(peaks.read, 1),
        "peak_after_parse_mb": Harness.format(peaks.parse, 1),
        "peak_after_validate_mb": Harness.format(peaks.validate, 1)
      ])
  }

  /// (b) a `FlowStore` and a `FlowEngine` over the parsed document, and the first evaluation.
  static func storeAndEngine(_ path: String, _ reference: Reference, size: String) async throws {
    var storeTimes: [Double] = [], engineTimes: [Double] = [], firstTimes: [Double] = []
    var peak = 0.0
    var bytesPerNode = (store: 0, engine: 0)
    for _ in 0..<runs {
      guard let data = FileManager.default.contents(atPath: path) else {
        return Harness.check(false, "W10 cannot read \(path)")
      }
      let document = try FlowDocument(jsonBytes: [UInt8](data))
      resetPeakRSS()
      let t0 = Harness.now()
      let store = try FlowStore(catalog: BenchKinds.registry, document: document)
      let t1 = Harness.now()
      let engine = try FlowEngine(
        store: store, registry: BenchKinds.registry,
        options: EngineOptions(runsExpensiveNodesConcurrently: false))
      let t2 = Harness.now()
      let report = await engine.evaluate()
      let t3 = Harness.now()
      peak = max(peak, peakRSSSinceReset())
      Harness.check(report?.evaluationCount == reference.nodeCount, "W10 engine ran \(report?.evaluationCount ?? -1)")
      let last = reference.nodeCount - 1
      let value = await engine.outputs(of: "n\(last)")?["result"]
      Harness.check(
        value == .integer(reference.values[last]), "W10 engine value of n\(last): \(String(describing: value))")
      storeTimes.append(Double(t1 - t0))
      engineTimes.append(Double(t2 - t1))
      firstTimes.append(Double(t3 - t2))
      bytesPerNode = (
        store.memoryFootprint.bytes / reference.nodeCount, (await engine.memoryFootprint).bytes / reference.nodeCount
      )
      engine.shutDown()
    }
    let n = reference.nodeCount
    Harness.emit(workload: "W10", metric: "FlowStore(document:)", Stat(storeTimes), nodes: n, note: size)
    Harness.emit(workload: "W10", metric: "FlowEngine(store:)", Stat(engineTimes), nodes: n)
    Harness.emit(
      workload: "W10", metric: "FlowEngine first evaluation", Stat(firstTimes), nodes: n,
      note: "FlowStore \(bytesPerNode.store) B/node + FlowEngine \(bytesPerNode.engine) B/node",
      extra: [
        "phase_peak_rss_mb": Harness.format(peak, 1),
        "store_plus_engine_bytes_per_node": "\(bytesPerNode.store + bytesPerNode.engine)"
      ])
  }

  /// (c) single-source updates at this size and at a tenth of it, per recomputed node.
  ///
  /// Cut-off updates add 1,000,003 to a source (its children's `addmod` results do not change,
  /// so exactly the source and its children run); propagating updates add 1 (every descendant
  /// runs). Each is repeated for `updateRounds` rounds (the same 1,000 sources, and the same 5
  /// propagating ones, every round), reported as min / median / max per recomputed node; the
  /// ratios compare the medians (and the minimums, in `ratio_of_minimums`).
  static func updates(_ reference: Reference) throws {
    let small = Reference(nodeCount: reference.nodeCount / 10)
    var perNode: [String: (median: Double, min: Double)] = [:]
    for graph in [small, reference] {
      let document = try FlowDocument(jsonBytes: graph.documentBytes())
      var evaluator = try GraphEvaluator(validating: document, registry: BenchKinds.registry)
      evaluator.evaluate()
      var random = SeededRandom(seed: 7)
      let sources = (0..<1_000).map { _ in Int(random.next() % UInt64(graph.sourceCount)) }
      let inputs = try sources.map { source in
        guard let input = evaluator.input("n\(source)", "value") else { throw W10Failure.noInput(source) }
        return input
      }
      let expectedCutOffRuns = sources.reduce(0) { $0 + 1 + graph.reach(of: $1).children }
      var cutOffSamples: [Double] = []
      for _ in 0..<updateRounds {
        var ran = 0
        var nanoseconds = 0.0
        for (source, input) in zip(sources, inputs) {
          let start = Harness.now()
          try evaluator.setUnconnectedInput(input, to: .integer(Int64(source + 1) + BenchKinds.modulus))
          ran += evaluator.evaluate().evaluationCount
          try evaluator.setUnconnectedInput(input, to: .integer(Int64(source + 1)))
          ran += evaluator.evaluate().evaluationCount
          nanoseconds += Double(Harness.now() - start)
        }
        Harness.check(
          ran == 2 * expectedCutOffRuns, "W10 cut-off updates ran \(ran), expected \(2 * expectedCutOffRuns)")
        cutOffSamples.append(nanoseconds / Double(ran))
      }
      let cutOff = Stat(cutOffSamples)
      Harness.emit(
        workload: "W10", metric: "1,000 cut-off single-source updates",
        Stat(cutOffSamples.map { $0 * Double(expectedCutOffRuns) / 1_000 }),
        nodes: expectedCutOffRuns / 1_000, variant: "\(graph.nodeCount) nodes", inner: 2_000,
        note:
          "source + its children run, then cut off; \(updateRounds) rounds; ns_per_recomputed_node is the median, with its min and max",
        extra: [
          "ns_per_recomputed_node": Harness.format(cutOff.median, 1),
          "ns_per_recomputed_node_min": Harness.format(cutOff.min, 1),
          "ns_per_recomputed_node_max": Harness.format(cutOff.max, 1)
        ])
      var propagatingSamples: [Double] = []
      var propagatedPerRound = 0
      for _ in 0..<updateRounds {
        var propagated = 0
        var expectedPropagated = 0
        var nanoseconds = 0.0
        for (source, input) in zip(sources, inputs).prefix(5) {
          expectedPropagated += 2 * (1 + graph.reach(of: source).descendants)
          let start = Harness.now()
          try evaluator.setUnconnectedInput(input, to: .integer(Int64(source + 2)))
          propagated += evaluator.evaluate().evaluationCount
          try evaluator.setUnconnectedInput(input, to: .integer(Int64(source + 1)))
          propagated += evaluator.evaluate().evaluationCount
          nanoseconds += Double(Harness.now() - start)
        }
        Harness.check(
          propagated == expectedPropagated, "W10 propagating updates ran \(propagated), expected \(expectedPropagated)")
        propagatingSamples.append(nanoseconds / Double(propagated))
        propagatedPerRound = propagated
      }
      var checksum: Int64 = 0
      for index in 0..<graph.nodeCount {
        checksum += evaluator.integer("n\(index)", index < graph.sourceCount ? "value" : "result")
      }
      Harness.check(checksum == graph.sum, "W10 checksum after updates \(checksum), expected \(graph.sum)")
      let propagating = Stat(propagatingSamples)
      Harness.emit(
        workload: "W10", metric: "10 propagating single-source updates",
        Stat(propagatingSamples.map { $0 * Double(propagatedPerRound) / 10 }), nodes: propagatedPerRound / 10,
        variant: "\(graph.nodeCount) nodes", inner: 10,
        note:
          "every descendant recomputes; \(updateRounds) rounds; ns_per_recomputed_node is the median, with its min and max",
        extra: [
          "ns_per_recomputed_node": Harness.format(propagating.median, 1),
          "ns_per_recomputed_node_min": Harness.format(propagating.min, 1),
          "ns_per_recomputed_node_max": Harness.format(propagating.max, 1)
        ])
      perNode["cutoff\(graph.nodeCount)"] = (cutOff.median, cutOff.min)
      perNode["propagated\(graph.nodeCount)"] = (propagating.median, propagating.min)
    }
    for kind in ["cutoff", "propagated"] {
      guard let large = perNode["\(kind)\(reference.nodeCount)"], let smaller = perNode["\(kind)\(small.nodeCount)"]
      else { continue }
      Harness.emit(
        workload: "W10", metric: "per-node update cost, \(reference.nodeCount) vs \(small.nodeCount) nodes",
        Stat([0]), nodes: nil, variant: kind, note: "target: within 2x (ratio of the medians)",
        extra: [
          "ratio": Harness.format(large.median / smaller.median, 2),
          "ratio_of_minimums": Harness.format(large.min / smaller.min, 2)
        ])
    }
  }

  /// Rounds of each kind of update (`--quick`: 3).
  static var updateRounds: Int { benchSettings.quick ? 3 : 7 }

  enum W10Failure: Error { case noInput(Int) }

  /// Resets this process's peak resident set (Linux: `/proc/self/clear_refs`; elsewhere a no-op).
  static func resetPeakRSS() {
    #if canImport(Glibc)
    guard let file = fopen("/proc/self/clear_refs", "w") else { return }
    fputs("5", file)
    fclose(file)
    #endif
  }

  /// The peak resident set since the last `resetPeakRSS()`, in MB (`VmHWM`; `getrusage` elsewhere).
  static func peakRSSSinceReset() -> Double {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    {
      return kilobytes / 1024
    }
    return Harness.peakRSSMegabytes()
  }
}
