import FlowCommandLine
import FlowNodes
import FlowRuntime
import Foundation

/// W13: TPC-H-shaped Q1 and Q3 (`W13Queries`) over CSVs generated here (`W13Data`), at scale
/// factor `--sf X` (default 1; 0.05 with `--quick`). For each query: `flow run` in this process
/// (exactly the CLI's path) and as a process (the `flow` binary beside `flow-bench`), each with
/// min/median/max and peak RSS, plus one pass with per-node times (MB/s for the readers).
///
///   flow-bench W13 [--sf 1]                       data in a temporary folder, removed after
///   flow-bench W13 --dir /tmp/tpch-sf1 --sf 1     data kept there (generated once, reused)
///   flow-bench W13 --dir … --generate             only writes the data (for compare-engines.sh)
///
/// A `--dir` that holds `.csv` or `.tbl` files W13 did not write (no `.w13-sf-*` marker: real
/// TPC-H data from `tpchgen-cli`) is never written into: W13 exits naming it.
enum W13TPCH {
  static func run() async throws {
    let sf = benchSettings.scaleFactor ?? (benchSettings.quick ? 0.05 : 1)
    let kept = benchSettings.dataFolder
    let folder =
      kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-w13-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: folder) } }
    let marker = folder + "/.w13-sf-\(sf)"
    if !FileManager.default.fileExists(atPath: marker)
      || !FileManager.default.fileExists(atPath: folder + "/lineitem.csv")
    {
      if let foreign = foreignData(in: folder) {
        FileHandle.standardError.write(
          Data(
            ("flow-bench W13: \(folder) holds \(foreign), which W13 did not write; "
              + "not generating over it (give an empty or W13's own --dir)\n").utf8))
        exit(1)
      }
      let start = Harness.now()
      let sizes = try W13Data.write(to: folder, scaleFactor: sf)
      _ = FileManager.default.createFile(atPath: marker, contents: Data("\(sizes.lineitemRows)\n".utf8))
      print(
        "{\"workload\": \"W13\", \"metric\": \"generate\", \"sf\": \(sf), \"seconds\": \(Harness.format(Double(Harness.now() - start) / 1e9, 2)), "
          + "\"lineitem_rows\": \(sizes.lineitemRows), \"lineitem_mb\": \(Harness.format(Double(sizes.lineitem) / 1e6, 1)), "
          + "\"orders_mb\": \(Harness.format(Double(sizes.orders) / 1e6, 1)), \"customer_mb\": \(Harness.format(Double(sizes.customer) / 1e6, 1))}"
      )
    }
    let queries = [("Q1", W13Queries.q1()), ("Q3", W13Queries.q3())]
    for (name, query) in queries {
      let path = folder + "/\(name.lowercased()).flow.json"
      try Data(query.graph.document.jsonString().utf8).write(to: URL(fileURLWithPath: path))
    }
    if benchSettings.generateOnly { return }
    let flow = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flow")
      .path
    for (name, query) in queries {
      try await measure(
        name, path: folder + "/\(name.lowercased()).flow.json", query: query, folder: folder, flow: flow, sf: sf)
    }
  }

  /// A `.csv` or `.tbl` file in `folder` when W13 wrote none of it (no `.w13-sf-*` marker):
  /// data from elsewhere, which generating would overwrite; `nil` otherwise.
  static func foreignData(in folder: String) -> String? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    if names.contains(where: { $0.hasPrefix(".w13-sf-") }) { return nil }
    return names.sorted().first { $0.hasSuffix(".csv") || $0.hasSuffix(".tbl") }
  }

  static func fileMegabytes(_ path: String) -> Double {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return Double(size) / 1e6
  }

  static func measure(
    _ name: String, path: String, query: (graph: BenchGraph, stages: [(id: String, name: String)]),
    folder: String, flow: String, sf: Double
  ) async throws {
    let output = folder + "/\(name.lowercased()).csv"
    let inputMB = ["lineitem", "orders", "customer"].reduce(0.0) { total, table in
      query.stages.contains { $0.name == "readCSV \(table)" } ? total + fileMegabytes(folder + "/\(table).csv") : total
    }
    // In process, as the CLI runs it.
    var samples: [Double] = []
    var peak = 0.0
    for _ in 0..<(Harness.reps + 1) {
      W10Scale.resetPeakRSS()
      let start = Harness.now()
      let result = await FlowCommandLine.runInProcess(["run", path], registry: NodeKindRegistry.standard)
      samples.append(Double(Harness.now() - start))
      peak = max(peak, W10Scale.peakRSSSinceReset())
      Harness.check(result.status == 0, "W13 \(name) flow run exited \(result.status): \(result.diagnostics.prefix(3))")
    }
    samples.removeFirst()  // warm-up
    let rows = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n").count ?? 0
    Harness.check(rows > 1, "W13 \(name) wrote no rows to \(output)")
    let inProcess = Stat(samples)
    // As a process: the `flow` binary's wall time and its own peak RSS.
    var processSeconds: [Double] = [], processPeak = 0.0
    if FileManager.default.isExecutableFile(atPath: flow) {
      for _ in 0..<Harness.reps {
        guard let outcome = UnsafeChildProcess.run(flow, ["run", path]) else { break }
        Harness.check(outcome.status == 0, "W13 \(name): \(flow) run exited \(outcome.status)")
        processSeconds.append(outcome.seconds * 1e9)
        processPeak = max(processPeak, outcome.peakRSSMegabytes)
      }
    }
    // Per-node times, one pass, as `flow run --report` shows them.
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder, workers: benchSettings.workers)
    var evaluator = try GraphEvaluator(
      validating: W13Run.prepared(query.graph.document), registry: registry,
      options: EngineOptions(timesEveryNode: true))
    let report = evaluator.evaluate()
    Harness.check(evaluator.failures.isEmpty, "W13 \(name) failed: \(evaluator.failures)")
    let stages = query.stages.map { stage -> String in
      let seconds =
        report.durations[stage.id].map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
      var text = "\"\(stage.name)\": {\"ms\": \(Harness.format(seconds * 1e3, 1))"
      if stage.name.hasPrefix("readCSV "), seconds > 0 {
        let megabytes = fileMegabytes(folder + "/\(stage.name.dropFirst(8)).csv")
        text += ", \"mb_per_s\": \(Harness.format(megabytes / seconds, 1))"
      }
      return text + "}"
    }.joined(separator: ", ")
    let process = processSeconds.isEmpty ? "null" : Stat(processSeconds).jsonSeconds
    Harness.emit(
      workload: "W13", metric: "\(name) flow run", inProcess, nodes: query.stages.count,
      variant: "in process, as the CLI; sf \(sf)",
      note: "\(Harness.format(inputMB, 1)) MB of CSV read, \(rows - 1) result rows",
      extra: [
        "stages_ms": "{\(stages)}",
        "in_process_s": inProcess.jsonSeconds,
        "in_process_peak_rss_mb": Harness.format(peak, 1),
        "process_s": process,
        "process_peak_rss_mb": Harness.format(processPeak, 1),
        "mb_per_s": Harness.format(inputMB / (inProcess.median / 1e9), 1),
        "sf": "\(sf)"
      ])
  }
}

extension Stat {
  /// `{"min": …, "median": …, "max": …}` in seconds, from nanoseconds.
  var jsonSeconds: String {
    "{\"min\": \(Harness.format(min / 1e9, 3)), \"median\": \(Harness.format(median / 1e9, 3)), \"max\": \(Harness.format(max / 1e9, 3))}"
  }
}

/// The document a run evaluates: as `flow run` prepares it.
enum W13Run {
  static func prepared(_ document: FlowDocument) -> FlowDocument {
    ColumnDemand.applied(to: document, registry: NodeKindRegistry.standard)
  }
}
