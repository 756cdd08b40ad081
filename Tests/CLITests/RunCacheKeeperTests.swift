import FlowCommandLine
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// `flow run --cache DIR` keeps tables while the pass goes on (`RunCacheKeeper`) and releases
/// them once their readers ran: the entries are the bytes the after-the-pass path writes,
/// released tables are served by the next run, and a run whose node fails keeps what settled
/// and leaves no temporary file.
@Suite struct RunCacheKeeperTests {
  /// The entries in `cache`, by file name: every file there must be an entry.
  static func entries(_ cache: URL) throws -> [String: Data] {
    var entries: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) {
      entries[name] = FileManager.default.contents(atPath: cache.appendingPathComponent(name).path)
    }
    return entries
  }

  @Test func entriesWrittenDuringThePassAreThoseWrittenAfterIt() async throws {
    let folder = try RunCacheCommandTests.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A run that releases tables keeps them as they settle; a traced run releases nothing and
    // keeps every entry after the pass.
    let during = await RunCacheCommandTests.run(folder, cache: ".cache-during")
    #expect(during.status == 0, "\(during.text)")
    let after = await RunCacheCommandTests.run(
      folder, ["--trace", folder.appendingPathComponent("trace.json").path],
      cache: ".cache-after")
    #expect(after.status == 0, "\(after.text)")
    #expect(during.outputs == after.outputs)
    let kept = try Self.entries(folder.appendingPathComponent(".cache-during"))
    let expected = try Self.entries(folder.appendingPathComponent(".cache-after"))
    #expect(
      kept.count > 3 && Set(kept.keys) == Set(expected.keys), "\(kept.keys.sorted()) vs \(expected.keys.sorted())")
    #expect(kept.keys.allSatisfy { $0.hasSuffix(".flowcache") })
    for (name, bytes) in kept {
      // A writer's entry records its target's modification time (byte 48 flags a target).
      guard bytes.count > 48, bytes[bytes.startIndex + 48] == 0 else { continue }
      #expect(bytes == expected[name], "entry \(name) differs")
    }
  }

  @Test func releasedTablesAreServedByTheNextRun() async throws {
    let folder = try RunCacheCommandTests.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cold = await RunCacheCommandTests.run(folder)
    #expect(cold.status == 0, "\(cold.text)")
    // `groups` and `named` are read by other nodes and released during the first run.
    let edited = await RunCacheCommandTests.run(
      folder, ["--set", #"heaviest.by=["mean_mass_kg"]"#, "--set", #"ordered.by=["-birds"]"#])
    #expect(edited.status == 0, "\(edited.text)")
    #expect(edited.fromCache.contains("named") && edited.fromCache.contains("groups"), "\(edited.fromCache)")
    #expect(!edited.ran.contains("penguins") && !edited.ran.contains("groups"), "\(edited.ran)")
    let uncached = await RunCacheCommandTests.run(
      folder, ["--set", #"heaviest.by=["mean_mass_kg"]"#, "--set", #"ordered.by=["-birds"]"#],
      cache: nil)
    #expect(edited.outputs == uncached.outputs)
  }

  @Test func aRunWhoseNodeFailsKeepsWhatSettledAndLeavesNoTemporaryFile() async throws {
    let folder = try RunCacheCommandTests.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    // The join names a column its inputs lack: it fails when it runs, after its inputs settled.
    let failed = await RunCacheCommandTests.run(folder, ["--set", #"named.on=["no_such_column"]"#])
    #expect(failed.status != 0, "\(failed.text)")
    let cache = folder.appendingPathComponent(".flow-cache")
    let kept = try Self.entries(cache)
    #expect(!kept.isEmpty && kept.keys.allSatisfy { $0.hasSuffix(".flowcache") }, "\(kept.keys.sorted())")
    let fixed = await RunCacheCommandTests.run(folder)
    #expect(fixed.status == 0, "\(fixed.text)")
    #expect(fixed.fromCache.contains("groups") && !fixed.ran.contains("penguins"), "\(fixed.fromCache) \(fixed.ran)")
    let uncached = await RunCacheCommandTests.run(folder, cache: nil)
    #expect(fixed.outputs == uncached.outputs)
    #expect(try Self.entries(cache).keys.allSatisfy { $0.hasSuffix(".flowcache") })
  }
}
