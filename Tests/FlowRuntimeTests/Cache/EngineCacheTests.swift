import FlowGraph
import FlowNodes
import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// `EngineOptions.cache`: a host engine's second start over the same folder serves from the
/// cache with identical values (which nodes ran is asserted from the reports); an edited
/// param reruns exactly that node and its descendants, and editing it back serves them from
/// the folder again; a demand-driven engine serves only what its observers need; a damaged
/// entry is ignored with a warning; the folder must lie inside the writable folders.
@Suite struct EngineCacheTests {
  /// A folder holding `data.csv` and `pipeline.flow.json`: rows → kept (filter) → ordered
  /// (sort) → top (limit); kept → count (rowCount).
  static func pipeline() throws -> (folder: String, document: FlowDocument) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-enginecache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    var csv = "name,size\n"
    for index in 0..<40 { csv += "n\(index),\((index * 37) % 101)\n" }
    try Data(csv.utf8).write(to: url.appendingPathComponent("data.csv"))
    let document = """
      {"nodes": [
        {"id": "rows", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
        {"id": "kept", "data": {"kind": "filter", "params": {"where": "size > 20"}}},
        {"id": "ordered", "data": {"kind": "sort", "params": {"by": ["-size"]}}},
        {"id": "top", "data": {"kind": "limit", "params": {"count": 3}}},
        {"id": "count", "data": {"kind": "rowCount", "params": {}}}],
       "edges": [
        {"id": "e1", "sourceNodeID": "rows", "sourceHandleID": "table", "targetNodeID": "kept", "targetHandleID": "table"},
        {"id": "e2", "sourceNodeID": "kept", "sourceHandleID": "table", "targetNodeID": "ordered", "targetHandleID": "table"},
        {"id": "e3", "sourceNodeID": "ordered", "sourceHandleID": "table", "targetNodeID": "top", "targetHandleID": "table"},
        {"id": "e4", "sourceNodeID": "kept", "sourceHandleID": "table", "targetNodeID": "count", "targetHandleID": "table"}]}
      """
    let path = url.appendingPathComponent("pipeline.flow.json").path
    try Data(document.utf8).write(to: URL(fileURLWithPath: path))
    return (url.path, try FlowDocument(contentsOf: path))
  }

  static func engine(
    _ document: FlowDocument, cache: FlowCache?, demandDriven: Bool = false,
    observing: [String] = []
  ) throws -> FlowEngine {
    var options = EngineOptions(demandDriven: demandDriven)
    options.cache = cache
    return try FlowEngine(document: document, registry: .standard, options: options, observing: observing)
  }

  static let nodes = ["rows", "kept", "ordered", "top", "count"]

  static func values(_ engine: FlowEngine, _ ids: [String] = nodes) async -> [String: [String: Value]] {
    var values: [String: [String: Value]] = [:]
    for id in ids { values[id] = await engine.outputs(of: id) }
    return values
  }

  static func setParam(_ engine: FlowEngine, _ id: String, _ name: String, _ value: JSONValue) throws {
    var node = try #require(engine.store.node(id: id))
    node.data.params[name] = value
    try engine.store.updateNode(node)
  }

  @Test func aSecondEngineOnTheSameFolderServesFromTheCacheWithIdenticalValues() async throws {
    let (folder, document) = try Self.pipeline()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = try Self.engine(document, cache: FlowCache(beside: document))
    let cold = try #require(await first.evaluate())
    #expect(Set(cold.ran) == Set(Self.nodes) && cold.fromCache.isEmpty)
    let expected = await Self.values(first)
    first.shutDown()
    let cache = try FlowCache(beside: document)
    #expect(cache.statistics().entries == 4, "the four tables are kept; the cheap count is not")

    let second = try Self.engine(document, cache: cache)
    let warm = try #require(await second.evaluate())
    #expect(warm.fromCache == ["rows", "kept", "ordered", "top"])
    #expect(warm.ran == ["count"], "only the node not worth keeping runs, from the served table")
    #expect(await Self.values(second) == expected)
    #expect(await second.evaluationCount(of: "rows") == 1, "the reader's stand-in, not the reader")
  }

  @Test func editingOneParamRerunsExactlyThatNodeAndItsDescendantsAndEditingBackServesThem() async throws {
    let (folder, document) = try Self.pipeline()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = await (try Self.engine(document, cache: FlowCache(beside: document))).evaluate()
    let engine = try Self.engine(document, cache: FlowCache(beside: document))
    _ = await engine.evaluate()

    try Self.setParam(engine, "kept", "where", .string("size > 50"))
    let edited = try #require(await engine.evaluate())
    #expect(Set(edited.ran) == ["kept", "ordered", "top", "count"], "\(edited.ran)")
    #expect(edited.fromCache.isEmpty, "the reader keeps the values the engine held")
    var changed = document
    changed.nodes[1].data.params["where"] = .string("size > 50")
    let uncached = try Self.engine(changed, cache: nil)
    _ = await uncached.evaluate()
    #expect(await Self.values(engine) == Self.values(uncached))

    // A node downstream of every served one: applied as usual, nothing rebuilt.
    try Self.setParam(engine, "top", "count", .integer(2))
    let downstream = try #require(await engine.evaluate())
    #expect(downstream.ran == ["top"] && downstream.fromCache.isEmpty)

    // Back to the first filter: its key has an entry again, and so do its descendants'.
    try Self.setParam(engine, "kept", "where", .string("size > 20"))
    let back = try #require(await engine.evaluate())
    #expect(back.fromCache == ["kept", "ordered"], "\(back.fromCache) ran \(back.ran)")
    #expect(Set(back.ran) == ["top", "count"], "top has a new count: its key is new")
  }

  @Test func aDemandDrivenEngineServesWhatItsObserversNeedAndReadsNothingElse() async throws {
    let (folder, document) = try Self.pipeline()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cold = try Self.engine(document, cache: FlowCache(beside: document), demandDriven: true, observing: ["top"])
    let first = try #require(await cold.evaluate())
    #expect(Set(first.ran) == ["rows", "kept", "ordered", "top"])
    let expected = await cold.outputs(of: "top")
    cold.shutDown()
    let warm = try Self.engine(document, cache: FlowCache(beside: document), demandDriven: true, observing: ["top"])
    let report = try #require(await warm.evaluate())
    #expect(report.fromCache == ["top"] && report.ran.isEmpty)
    #expect(await warm.outputs(of: "top") == expected)
    #expect(await warm.evaluationCount(of: "rows") == 0, "the reader never ran: the file was not read")
  }

  @Test func aDamagedEntryIsIgnoredWithAWarningAndTheValuesStayRight() async throws {
    let (folder, document) = try Self.pipeline()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cold = try Self.engine(document, cache: FlowCache(beside: document))
    _ = await cold.evaluate()
    let expected = await Self.values(cold)
    let entries = folder + "/.flow-cache"
    for (index, name) in try FileManager.default.contentsOfDirectory(atPath: entries).sorted().enumerated() {
      let path = entries + "/" + name
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      if index % 2 == 0 { bytes[bytes.count / 2] ^= 0x01 } else { bytes.removeLast(bytes.count / 3) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    let warnings = Locked<[String]>([])
    let cache = try FlowCache(beside: document, warn: { line in warnings.withLock { $0.append(line) } })
    let warm = try Self.engine(document, cache: cache)
    let report = try #require(await warm.evaluate())
    #expect(await Self.values(warm) == expected)
    #expect(!warnings.withLock { $0 }.isEmpty)
    #expect(warnings.withLock { $0 }.allSatisfy { $0.contains("ignored") }, "\(warnings.withLock { $0 })")
    #expect(Set(report.ran).union(report.fromCache) == Set(Self.nodes))
  }

  @Test func theFolderMustLieInsideTheWritableFolders() throws {
    let (folder, document) = try Self.pipeline()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(throws: FileAccessError.self) {
      _ = try FlowCache(directory: folder + "/.flow-cache", writableFolders: [folder + "/elsewhere"])
    }
    #expect(throws: FileAccessError.self) { _ = try FlowCache(beside: FlowDocument()) }
    #expect(!FileManager.default.fileExists(atPath: folder + "/.flow-cache"))
    let cache = try FlowCache(beside: document, maximumBytes: 1 << 20)
    #expect(
      cache.directory.hasSuffix("/.flow-cache") && cache.maximumBytes == 1 << 20 && cache.statistics().entries == 0)
    #expect(cache == (try FlowCache(beside: document, maximumBytes: 1 << 20)))
  }
}
