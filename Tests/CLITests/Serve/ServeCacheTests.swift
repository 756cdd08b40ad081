import FlowGraph
import FlowRuntime
import Foundation
import Testing
@testable import FlowCommandLine

/// `flow serve --cache DIR`: a second session over the same document and cache serves from the
/// cache (its first pass runs nothing that was kept); an edit made in the page reruns that
/// node and what it reaches; the cache is refused outside the writable folders and writes
/// nothing there.
@Suite(.serialized) struct ServeCacheTests {
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "k,x\n1,5\n2,15\n3,25\n4,35\n".write(
      to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    try """
    {"nodes": [
      {"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
      {"id": "big", "data": {"kind": "filter", "params": {"where": "x > 10"}}},
      {"id": "sorted", "data": {"kind": "sort", "params": {"by": ["-x"]}}},
      {"id": "count", "data": {"kind": "rowCount", "params": {}}}
    ], "edges": [
      {"id": "e1", "sourceNodeID": "read", "targetNodeID": "big"},
      {"id": "e2", "sourceNodeID": "big", "targetNodeID": "sorted"},
      {"id": "e3", "sourceNodeID": "sorted", "targetNodeID": "count"}
    ]}
    """.write(to: folder.appendingPathComponent("pipeline.flow.json"), atomically: true, encoding: .utf8)
    return folder
  }

  static func session(_ folder: URL, _ extra: [String]) throws -> ServeSession {
    let arguments = try ArgumentParser.parse(
      [folder.appendingPathComponent("pipeline.flow.json").path, "--port", "0"] + extra,
      as: ServeCommand.spec)
    let context = CommandContext(stderrIsTerminal: false, write: { _ in }, warn: { _ in }, writeDiagnostic: { _ in })
    return try ServeCommand.start(arguments, context: context, watchInterval: nil)
  }

  @Test func aSecondSessionServesFromTheCacheAndAnEditRerunsWhatItReaches() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = ["--cache", folder.appendingPathComponent(".flow-cache").path]
    let first = try Self.session(folder, cache)
    await first.awaitFirstPass()
    let cold = try #require(first.engine.lastReport)
    #expect(Set(cold.ran) == ["read", "big", "sorted", "count"] && cold.fromCache.isEmpty)
    let sorted = await first.engine.outputs(of: "sorted")
    await first.stop()

    let second = try Self.session(folder, cache)
    await second.awaitFirstPass()
    let warm = try #require(second.engine.lastReport)
    #expect(warm.fromCache == ["read", "big", "sorted"], "\(warm.fromCache)")
    #expect(warm.ran == ["count"])
    #expect(await second.engine.outputs(of: "sorted") == sorted)
    #expect(await second.engine.outputs(of: "count") == ["count": .integer(3)])
    // The pass event names the served nodes and carries their values.
    let event = ServeEvent.pass(
      warm, snapshot: await second.engine.evaluatorSnapshot(), state: second.state.withLock { $0 },
      params: [:])
    #expect(event.objectValue?["fromCache"] == ["read", "big", "sorted"])

    var node = try #require(second.engine.store.node(id: "big"))
    node.data.params["where"] = .string("x > 20")
    try second.engine.store.updateNode(node)
    let edited = try #require(await second.engine.evaluate())
    #expect(Set(edited.ran) == ["big", "sorted", "count"], "\(edited.ran)")
    #expect(await second.engine.outputs(of: "count") == ["count": .integer(2)])
    await second.stop()
  }

  @Test func theCacheIsRefusedOutsideTheWritableFoldersAndWritesNothingThere() async throws {
    let folder = try Self.folder()
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-serve-cache-out-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    do {
      _ = try Self.session(folder, ["--cache", outside.appendingPathComponent("c").path])
      Issue.record("a cache outside the writable folders was accepted")
    } catch let failure as CommandFailure {
      #expect(failure.status == .usage)
      #expect(failure.lines.first?.contains("outside the folders the run may write") == true, "\(failure.lines)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    do {
      _ = try Self.session(folder, ["--cache-max", "1M"])
      Issue.record("--cache-max without --cache was accepted")
    } catch let failure as CommandFailure {
      #expect(failure.lines.first?.contains("--cache-max needs --cache DIR") == true)
    }
    // Allowed with --allow-write: every file the session writes lies in the cache's folder.
    let session = try Self.session(
      folder, ["--cache", outside.appendingPathComponent("c").path, "--allow-write", outside.path])
    await session.awaitFirstPass()
    await session.stop()
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["c"])
    let entries = try FileManager.default.contentsOfDirectory(atPath: outside.appendingPathComponent("c").path)
    #expect(entries.count >= 3 && entries.allSatisfy { $0.hasSuffix(".flowcache") }, "\(entries)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["data.csv", "pipeline.flow.json"])
  }
}
