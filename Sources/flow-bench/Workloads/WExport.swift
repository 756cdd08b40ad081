import FlowNodes
import FlowRuntime
import FlowSQL
import Foundation

/// WExport: the time `flow export --sql` takes to compile a long table pipeline (Reference.md, "SQL export";
/// target ≤ 1 s for 10,000 nodes). One `readCSV` of a small file, then a chain cycling
/// `filter`, `derive` (replacing a column), `sort`, `select`, `limit`, `distinct`, so every
/// relation has the same few columns; timed at 1,000 and 10,000 nodes, and their ratio (≈ 10
/// when the compiler is linear) printed with them.
enum WExport {
  static func run() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-bench-wexport-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data("k,v,s\n1,2.5,a\n2,,b\n".utf8).write(to: URL(fileURLWithPath: folder + "/t.csv"))
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(
      documentFolder: folder, fileAccess: FileAccessPolicy(readableRoots: [folder], writableRoots: [folder]))
    let exporter = SQLExporter(registry: registry, dialect: .duckdb)
    var medians: [Int: Double] = [:]
    for length in [1_000, 10_000] {
      let document = pipeline(length)
      var bytes = 0
      let stat = Harness.measure { _ in
        do { bytes = try exporter.script(for: document).utf8.count } catch { Harness.check(false, "WExport: \(error)") }
      }
      Harness.check(bytes > length * 40, "WExport: a script of \(bytes) bytes for \(length) nodes")
      medians[length] = stat.median
      Harness.emit(
        workload: "WExport", metric: "export --sql", stat, nodes: length + 2, variant: "\(length) nodes",
        note: "readCSV + chain of filter/derive/sort/select/limit/distinct + writeCSV; script \(bytes) bytes")
    }
    let ratio = (medians[10_000] ?? 0) / max(medians[1_000] ?? 1, 1)
    Harness.emit(
      workload: "WExport", metric: "10x nodes / 1x nodes", Stat([ratio * 1e6]), nodes: nil,
      note: "ratio of medians (shown in the ms fields): about 10 when linear")
  }

  /// `readCSV` → `length` table nodes → `writeCSV`.
  static func pipeline(_ length: Int) -> FlowDocument {
    var graph = BenchGraph()
    var previous = graph.node("readCSV", ["path": .string("t.csv")])
    let steps: [(String, JSONObject)] = [
      ("filter", ["where": .string("v > -1000 or isNull(v)")]),
      ("derive", ["columns": .object(["v": .string("coalesce(v, 0) + k * 2")])]),
      ("sort", ["by": .array([.string("-v"), .string("s")])]),
      ("select", ["columns": .array([.string("k"), .string("v"), .string("s")])]),
      ("limit", ["count": .integer(1_000_000)]),
      ("distinct", [:])
    ]
    for index in 0..<length {
      let step = steps[index % steps.count]
      let next = graph.node(step.0, step.1)
      graph.edge(previous, "table", to: next, "table")
      previous = next
    }
    let save = graph.node("writeCSV", ["path": .string("out.csv")])
    graph.edge(previous, "table", to: save, "table")
    return graph.document
  }
}
