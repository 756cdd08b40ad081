import Foundation
import FlowGraph
import FlowNodes
import FlowRuntime

/// W8: live throughput. `lines` over a generated file → `toNumber` → `accumulate`, end to end
/// through `FlowEngine` (each line is an emission, each emission a pass), against a floor that
/// reads the same file in chunks and sums the numbers in a plain loop. Reports emissions per
/// second and the peak RSS after 100,000 and after 1,000,000 lines (flat: the file is
/// streamed and the emission buffer is bounded). Run it on its own (`flow-bench W8`): RSS is a
/// high-water mark of the process.
enum W8Live {
  static func run() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-w8-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let large = benchSettings.quick ? 200_000 : 1_000_000
    let small = large / 10
    let baseline = Harness.peakRSSMegabytes()
    let (smallSeconds, _) = try await engineRun(lines: small, folder: folder)
    let rssSmall = Harness.peakRSSMegabytes()
    let (seconds, total) = try await engineRun(lines: large, folder: folder)
    let rssLarge = Harness.peakRSSMegabytes()
    var floorTotal = 0.0
    let floor = try Harness.measure { _ in floorTotal = try Self.floor(path: folder + "/lines-\(large).txt") }
    Harness.check(floorTotal == total, "W8 engine sum \(total) differs from the floor's \(floorTotal)")
    let stat = Stat([seconds * 1e9])
    Harness.emit(
      workload: "W8", metric: "lines → toNumber → accumulate, end to end (\(large) emissions)", stat, nodes: large,
      variant: "FlowEngine, one pass per emission",
      note: "each line is an emission processed by its own pass; the buffer holds 64",
      extra: [
        "emissions_per_s": Harness.format(Double(large) / seconds, 0),
        "emissions_per_s_small_run": Harness.format(Double(small) / smallSeconds, 0),
        "floor_ms": Harness.format(floor.median / 1e6, 3),
        "floor_lines_per_s": Harness.format(Double(large) / (floor.median / 1e9), 0),
        "ratio_to_floor": Harness.format(seconds * 1e9 / floor.median, 2),
        "rss_before_mb": Harness.format(baseline, 1),
        "peak_rss_after_\(small)_lines_mb": Harness.format(rssSmall, 1),
        "peak_rss_after_\(large)_lines_mb": Harness.format(rssLarge, 1),
        "targets": "\"emissions/s >= 250000, peak RSS flat in the number of lines\""
      ])
  }

  /// Writes a file of `lines` integers (0 … 999) and runs the live graph over it.
  static func engineRun(lines: Int, folder: String) async throws -> (seconds: Double, total: Double) {
    let name = "lines-\(lines).txt"
    try write(lines: lines, to: folder + "/" + name)
    var graph = BenchGraph()
    let source = graph.node("lines", ["path": .string(name)])
    let parse = graph.node("toNumber", [:])
    let sum = graph.node("accumulate", [:])
    graph.edge(source, "line", to: parse, "text")
    graph.edge(parse, to: sum, "value")
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(documentFolder: folder)
    let clock = ContinuousClock()
    let start = clock.now
    let engine = try FlowEngine(document: graph.document, registry: registry)
    await engine.waitForLiveSources()
    let elapsed = clock.now - start
    let total = await engine.outputs(of: sum)?["total"]?.numberValue ?? .nan
    Harness.check(engine.processedEmissionCount == lines, "W8 processed \(engine.processedEmissionCount) of \(lines)")
    let failures = await engine.failures()
    Harness.check(failures.isEmpty, "W8 failed: \(failures)")
    engine.shutDown()
    let (whole, fraction) = elapsed.components
    return (Double(whole) + Double(fraction) / 1e18, total)
  }

  static func write(lines: Int, to path: String) throws {
    var text = ""
    text.reserveCapacity(lines * 4)
    for index in 0..<lines { text += String(index % 1000); text += "\n" }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
  }

  /// The floor: 64 KiB chunks, split at newlines, parse each line as a `Double`, sum.
  static func floor(path: String) throws -> Double {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
    defer { try? handle.close() }
    var total = 0.0
    var carry: [UInt8] = []
    while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
      carry.append(contentsOf: chunk)
      var start = 0
      while let newline = carry[start...].firstIndex(of: UInt8(ascii: "\n")) {
        total += Double(String(decoding: carry[start..<newline], as: UTF8.self)) ?? 0
        start = newline + 1
      }
      carry.removeFirst(start)
    }
    if !carry.isEmpty { total += Double(String(decoding: carry, as: UTF8.self)) ?? 0 }
    return total
  }
}
