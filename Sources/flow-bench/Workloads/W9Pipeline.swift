import Foundation
import FlowNodes
import FlowRuntime

/// W9: a headless pipeline on a flights-sized CSV (336,776 rows × 19 columns, ~30 MB):
/// `readCSV → filter (not cancelled) → groupBy [origin, carrier] (count, mean arr_delay, sum
/// distance) → sort → writeCSV`, against `W9Floor`. Reports each stage, rows/s, the
/// CSV read rate and the peak RSS after the first run (run `flow-bench W9` on its own: RSS is
/// a high-water mark of the process). `--csv-off PATHS` reads with those paths of the CSV
/// reader off (`BenchSettings.csvRead`), to compare.
enum W9Pipeline {
  /// The process's CPU time (user + system) spent in `body`, in seconds.
  static func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let start = now()
    try body()
    return now() - start
  }

  /// One read of the whole flights file in `folder` by a cold evaluator of a graph holding only
  /// the readCSV node: its wall time in nanoseconds and the process's CPU seconds.
  static func readWhole(folder: String) throws -> (wall: Double, cpu: Double) {
    var graph = BenchGraph()
    let read = graph.node("readCSV", ["path": "flights.csv"])
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(
      documentFolder: folder, csvRead: benchSettings.csvRead,
      workers: benchSettings.workers)
    var wall = 0.0
    let cpu = try cpuSeconds {
      let start = Harness.now()
      var evaluator = try GraphEvaluator(validating: graph.document, registry: registry)
      _ = evaluator.evaluate()
      wall = Double(Harness.now() - start)
      Harness.check(
        evaluator.value(of: read, port: "table")?.tableValue?.rowCount == W9Flights.rows, "W9 read-only rows")
    }
    return (wall, cpu)
  }

  /// One read of the flights file at `path` by `UnsafeW9WholeFloor` on the reader's threads: its
  /// wall time in nanoseconds.
  static func readFloor(_ path: String) throws -> Double {
    let start = Harness.now()
    let rows = try UnsafeW9WholeFloor.read(path: path, threads: benchSettings.workers)
    let wall = Double(Harness.now() - start)
    Harness.check(rows == W9Flights.rows, "W9 whole-table floor rows \(rows)")
    return wall
  }

  static func run() async throws {
    // `flow-bench W9 --csv PATH` only writes the flights file (for `Examples/flights`, or to
    // compare with another tool on the same bytes).
    if let path = benchSettings.flightsPath {
      let size = try W9Flights.write(to: path)
      print("wrote \(size) bytes, \(W9Flights.rows) rows, to \(path)")
      return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-w9-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let input = folder + "/flights.csv"
    let baseline = Harness.peakRSSMegabytes()
    let size = try W9Flights.write(to: input)
    let megabytes = Double(size) / 1e6

    // `flow-bench W9 --read-loop N` only reads the whole file N times in this process (a
    // graph holding only the readCSV node, as `csv_read_only_mb_per_s`), for profiling and
    // for comparing builds: min / median / max MB/s, and the median CPU and wall time per read
    // (with `--read-floor`, each read followed by one of `UnsafeW9WholeFloor`, and its MB/s).
    if let loops = benchSettings.readLoops {
      var walls: [Double] = [], cpus: [Double] = [], floors: [Double] = []
      let withFloor = benchSettings.readFloor
      for _ in 0..<loops {
        let (wall, cpu) = try readWhole(folder: folder)
        walls.append(wall)
        cpus.append(cpu)
        if withFloor { floors.append(try readFloor(input)) }
      }
      let wall = Stat(walls), cpu = Stat(cpus)
      print(
        "read-loop MB/s min/med/max \(Harness.format(megabytes / (wall.max / 1e9), 0)) \(Harness.format(megabytes / (wall.median / 1e9), 0)) "
          + "\(Harness.format(megabytes / (wall.min / 1e9), 0)) cpu-ms med \(Harness.format(cpu.median * 1e3, 1)) wall-ms med \(Harness.format(wall.median / 1e6, 1))"
      )
      if !floors.isEmpty {
        let floor = Stat(floors)
        print(
          "floor MB/s min/med/max \(Harness.format(megabytes / (floor.max / 1e9), 0)) \(Harness.format(megabytes / (floor.median / 1e9), 0)) "
            + "\(Harness.format(megabytes / (floor.min / 1e9), 0))")
      }
      return
    }
    var graph = BenchGraph()
    let read = graph.node("readCSV", ["path": "flights.csv"])
    let kept = graph.node("filter", ["where": "not isNull(dep_time)"])
    let groups = graph.node(
      "groupBy",
      [
        "by": ["origin", "carrier"],
        "aggregate": .object(
          JSONObject([
            JSONMember(key: "flights", value: "count()"),
            JSONMember(key: "mean_arr_delay", value: "mean(arr_delay)"),
            JSONMember(key: "total_distance", value: "sum(distance)")
          ]))
      ])
    let sort = graph.node("sort", ["by": ["-flights"]])
    let write = graph.node("writeCSV", ["path": "summary.csv"])
    graph.edge(read, to: kept, "table")
    graph.edge(kept, to: groups, "table")
    graph.edge(groups, to: sort, "table")
    graph.edge(sort, to: write, "table")
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(
      documentFolder: folder, csvRead: benchSettings.csvRead,
      workers: benchSettings.workers)

    func pass(_ document: FlowDocument? = nil) throws -> EvaluationReport {
      var evaluator = try GraphEvaluator(
        validating: document ?? graph.document, registry: registry, options: EngineOptions(timesEveryNode: true))
      let report = evaluator.evaluate()
      Harness.check(evaluator.failures.isEmpty, "W9 failed: \(evaluator.failures)")
      Harness.check(evaluator.value(of: read, port: "table")?.tableValue?.rowCount == W9Flights.rows, "W9 row count")
      Harness.check(
        evaluator.value(of: write, port: "rows") == .integer(48),
        "W9 groups: \(String(describing: evaluator.value(of: write, port: "rows")))")
      return report
    }
    let first = try pass()
    let peak = Harness.peakRSSMegabytes()
    var stages: [String: [Double]] = [:]
    let whole = try Harness.measure { _ in
      let report = try pass()
      for (node, duration) in report.durations {
        let (seconds, attoseconds) = duration.components
        stages[node, default: []].append(Double(seconds) * 1e9 + Double(attoseconds) / 1e9)
      }
    }
    _ = first
    var floorGroups = 0
    let floor = try Harness.measure { _ in
      floorGroups = try W9Floor.run(input: input, output: folder + "/floor.csv").groups
    }
    Harness.check(floorGroups == 48, "W9 floor groups \(floorGroups)")
    let ours = try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8).split(separator: "\n")
    let theirs = try String(contentsOfFile: folder + "/floor.csv", encoding: .utf8).split(separator: "\n")
    Harness.check(
      ours.count == theirs.count
        && zip(ours, theirs).allSatisfy { a, b in a.split(separator: ",").prefix(3) == b.split(separator: ",").prefix(3)
        },
      "W9 pipeline and floor disagree")
    // CPU time (user + system of the process) is steadier than wall time on a loaded machine:
    // the pipeline and the floor again, and a graph holding only the readCSV node.
    var pipelineCPU: [Double] = [], floorCPU: [Double] = [], readCPU: [Double] = []
    for _ in 0..<Harness.reps {
      pipelineCPU.append(try cpuSeconds { _ = try pass() })
      floorCPU.append(try cpuSeconds { _ = try W9Floor.run(input: input, output: folder + "/floor.csv") })
    }
    var readWall: [Double] = [], floorWall: [Double] = []
    // Three times the runs: single reads of ~50 ms swing with the machine. Each read is followed
    // by one of the hand-written whole-table floor (`UnsafeW9WholeFloor`).
    for _ in 0..<(3 * Harness.reps) {
      let (wall, cpu) = try readWhole(folder: folder)
      readWall.append(wall)
      readCPU.append(cpu)
      floorWall.append(try readFloor(input))
    }
    // The same pipeline as `flow run` prepares it (`ColumnDemand`: readCSV converts the 5
    // columns the graph reads and scans past the other 14): its readCSV stage.
    let demanded = W13Run.prepared(graph.document)
    var demandRead: [Double] = []
    for _ in 0..<Harness.reps {
      let report = try pass(demanded)
      if let duration = report.durations[read] {
        let (seconds, attoseconds) = duration.components
        demandRead.append(Double(seconds) * 1e9 + Double(attoseconds) / 1e9)
      }
    }
    /// `{"min": …, "median": …, "max": …}` MB/s of the file from stage times in nanoseconds.
    func rates(_ nanoseconds: [Double]) -> String {
      let stat = Stat(nanoseconds.isEmpty ? [0] : nanoseconds)
      return
        "{\"min\": \(Harness.format(megabytes / (stat.max / 1e9), 1)), \"median\": \(Harness.format(megabytes / (stat.median / 1e9), 1)), \"max\": \(Harness.format(megabytes / (stat.min / 1e9), 1))}"
    }
    let readNanoseconds = Stat(stages[read] ?? [0]).median
    let stageText = [(read, "readCSV"), (kept, "filter"), (groups, "groupBy"), (sort, "sort"), (write, "writeCSV")].map
    { node, name in
      "\"\(name)\": \(Harness.format(Stat(stages[node] ?? [0]).median / 1e6, 3))"
    }.joined(separator: ", ")
    Harness.emit(
      workload: "W9", metric: "flights pipeline: readCSV → filter → groupBy → sort → writeCSV", whole, nodes: 5,
      variant: "in-process, cold evaluator per run",
      note: "\(W9Flights.rows) rows, \(Harness.format(megabytes, 1)) MB",
      extra: [
        "stages_ms": "{\(stageText)}",
        "rows_per_s": Harness.format(Double(W9Flights.rows) / (whole.median / 1e9), 0),
        "csv_read_mb_per_s": Harness.format(megabytes / (readNanoseconds / 1e9), 1),
        "csv_read_mb_per_s_stat": rates(stages[read] ?? []),
        "csv_read_only_mb_per_s": rates(readWall),
        "csv_read_floor_mb_per_s": rates(floorWall),
        "csv_read_demand_mb_per_s": rates(demandRead),
        "floor_ms": Harness.format(floor.median / 1e6, 3),
        "ratio_to_floor": Harness.format(whole.median / floor.median, 2),
        "peak_rss_after_first_run_mb": Harness.format(peak, 1),
        "rss_before_mb": Harness.format(baseline, 1),
        "rss_over_file_size": Harness.format(peak / megabytes, 2),
        "cpu_ratio_to_floor": Harness.format(Stat(pipelineCPU).median / Stat(floorCPU).median, 2),
        "cpu_pipeline_ms": Harness.format(Stat(pipelineCPU).median * 1e3, 1),
        "cpu_floor_ms": Harness.format(Stat(floorCPU).median * 1e3, 1),
        "csv_read_cpu_mb_per_s":
          "{\"min\": \(Harness.format(megabytes / Stat(readCPU).max, 1)), \"median\": \(Harness.format(megabytes / Stat(readCPU).median, 1)), \"max\": \(Harness.format(megabytes / Stat(readCPU).min, 1))}",
        "floor_ms_min_max": "[\(Harness.format(floor.min / 1e6, 1)), \(Harness.format(floor.max / 1e6, 1))]",
        "rss_growth_over_file_size": Harness.format((peak - baseline) / megabytes, 2),
        "targets": "\"pipeline <= 3x floor, CSV read >= 150 MB/s, peak RSS <= 4x file size\""
      ])
  }
}
