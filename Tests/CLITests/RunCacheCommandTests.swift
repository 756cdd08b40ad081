import FlowCommandLine
import FlowNodes
import FlowRuntime
import Foundation
import Testing

/// `flow run --cache DIR`: the second run of the penguins pipeline (copied into a temp folder)
/// is served from the cache with the same outputs and files; an edited param reruns exactly
/// that node and what it reaches; a touched input reruns its reader and what it reaches;
/// concurrent runs share a cache; `--cache-max` holds; the cache stays inside the writable
/// folders; `flow cache stats|clear`.
@Suite struct RunCacheCommandTests {
  /// What `flow run --format json --report` said.
  struct Outcome {
    var status: Int32
    var outputs: String
    var ran: [String]
    var fromCache: [String]
    var text: String
  }

  /// A fresh folder holding the penguins example.
  static func penguins() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let example = TestPaths.packageRoot.appendingPathComponent("Examples/penguins")
    for name in ["report.flow.json", "penguins.csv", "species.json"] {
      try FileManager.default.copyItem(
        at: example.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    return folder
  }

  static func run(_ folder: URL, _ extra: [String] = [], cache: String? = ".flow-cache") async -> Outcome {
    let cacheArguments = cache.map { ["--cache", folder.appendingPathComponent($0).path] } ?? []
    return await outcome(
      of: ["run", folder.appendingPathComponent("report.flow.json").path, "--format", "json", "--report"]
        + cacheArguments + extra)
  }

  /// What `flow` said for `arguments` (a `run … --format json --report`), in process.
  static func outcome(of arguments: [String]) async -> Outcome {
    let result = await FlowCommandLine.runInProcess(arguments, registry: NodeKindRegistry.standard)
    let root = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any]
    let report = root?["report"] as? [String: Any]
    let outputs =
      (try? JSONSerialization.data(withJSONObject: root?["outputs"] ?? [:], options: [.sortedKeys])) ?? Data()
    return Outcome(
      status: result.status, outputs: String(decoding: outputs, as: UTF8.self),
      ran: ((report?["ran"] as? [String]) ?? []).sorted(),
      fromCache: ((report?["fromCache"] as? [String]) ?? []).sorted(),
      text: result.output + result.diagnostics.joined(separator: "\n"))
  }

  static func written(_ folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    for name in ["summary.csv", "summary.json", "summary.txt"] {
      files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent("output/\(name)").path)
    }
    return files
  }

  @Test func secondRunIsServedFromTheCacheWithTheSameOutputsAndFiles() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cold = await Self.run(folder)
    #expect(cold.status == 0, "\(cold.text)")
    #expect(cold.ran.count == 21 && cold.fromCache.isEmpty)
    let files = Self.written(folder)
    #expect(files.count == 3)
    let warm = await Self.run(folder)
    #expect(warm.status == 0, "\(warm.text)")
    #expect(warm.ran.isEmpty, "\(warm.ran)")
    #expect(warm.fromCache == ["saveCSV", "saveJSON", "saveText"])
    #expect(warm.outputs == cold.outputs)
    #expect(Self.written(folder) == files)
    // Without the cache, the same outputs.
    let plain = await Self.run(folder, cache: nil)
    #expect(plain.outputs == cold.outputs && plain.ran.count == 21)
  }

  @Test func editingOneParamRerunsExactlyThatNodeAndWhatItReaches() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = await Self.run(folder)
    let edited = await Self.run(folder, ["--set", #"ordered.by=["-birds"]"#])
    #expect(edited.status == 0, "\(edited.text)")
    #expect(edited.ran == ["ordered", "saveCSV", "saveJSON"])
    #expect(edited.fromCache == ["named", "saveText"])
    // The edit is kept too: running it again serves it.
    let again = await Self.run(folder, ["--set", #"ordered.by=["-birds"]"#])
    #expect(again.ran.isEmpty && again.fromCache == ["saveCSV", "saveJSON", "saveText"])
    let uncached = await Self.run(folder, ["--set", #"ordered.by=["-birds"]"#], cache: nil)
    #expect(edited.outputs == uncached.outputs)
  }

  @Test func touchingAnInputRerunsItsReaderAndWhatItReaches() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = await Self.run(folder)
    let species = folder.appendingPathComponent("species.json").path
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: species)
    let touched = await Self.run(folder)
    #expect(touched.status == 0, "\(touched.text)")
    // What `names` reaches reruns; so do the cheap scalar nodes (`rowCount`s, not worth keeping)
    // that feed a rerun node; every table node it does not reach is served.
    let reached = [
      "heaviest", "named", "names", "ordered", "saveCSV", "saveJSON", "saveText", "text", "top", "topIsland",
      "topIslandName", "topName", "topSpecies"
    ]
    #expect(touched.ran.filter { !reached.contains($0) } == ["birds", "groupCount", "measuredCount"])
    #expect(Set(reached).isSubset(of: touched.ran))
    #expect(touched.fromCache == ["groups", "measured", "penguins"])
  }

  @Test func aWriterWhoseTargetChangedRunsAgain() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cold = await Self.run(folder)
    let csv = folder.appendingPathComponent("output/summary.csv")
    try Data("edited by hand\n".utf8).write(to: csv)
    let rerun = await Self.run(folder)
    #expect(rerun.ran == ["saveCSV"])
    #expect(rerun.fromCache == ["ordered", "saveJSON", "saveText"])
    #expect(rerun.outputs == cold.outputs)
    #expect(
      FileManager.default.contents(atPath: csv.path).map { !String(decoding: $0, as: UTF8.self).hasPrefix("edited") }
        == true)
  }

  @Test func cacheMaxHoldsAndStatsAndClearSayWhatIsThere() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = folder.appendingPathComponent(".flow-cache")
    let bounded = await Self.run(folder, ["--cache-max", "4K"])
    #expect(bounded.status == 0, "\(bounded.text)")
    let stats = await FlowCommandLine.runInProcess(
      ["cache", "stats", cache.path, "--format", "json"], registry: .standard)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Int])
    #expect(object["bytes"]! <= 4_096 && object["entries"]! > 0, "\(object)")
    let again = await Self.run(folder, ["--cache-max", "4K"])
    #expect(again.outputs == bounded.outputs)
    let cleared = await FlowCommandLine.runInProcess(["cache", "clear", cache.path], registry: .standard)
    #expect(cleared.status == 0 && cleared.output.hasPrefix("removed "))
    let empty = await FlowCommandLine.runInProcess(
      ["cache", "stats", cache.path, "--format", "json"], registry: .standard)
    #expect(empty.output == "{\"entries\": 0, \"bytes\": 0}\n")
  }

  @Test func theCacheNeverLiesOutsideTheWritableFolders() async throws {
    let folder = try Self.penguins()
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-cache-outside-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    let refused = await FlowCommandLine.runInProcess(
      ["run", folder.appendingPathComponent("report.flow.json").path, "--cache", outside.path], registry: .standard)
    #expect(refused.status == 64)
    #expect(!FileManager.default.fileExists(atPath: outside.path))
    // A link in the cache's place that leads out is refused too.
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("linked"), withDestinationURL: outside)
    let linked = await FlowCommandLine.runInProcess(
      [
        "run", folder.appendingPathComponent("report.flow.json").path, "--cache",
        folder.appendingPathComponent("linked").path
      ],
      registry: .standard)
    #expect(linked.status == 64)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    // With --allow-write it may live there.
    let allowed = await FlowCommandLine.runInProcess(
      [
        "run", folder.appendingPathComponent("report.flow.json").path, "--cache",
        outside.appendingPathComponent("c").path,
        "--allow-write", outside.path
      ], registry: .standard)
    #expect(allowed.status == 0)
    #expect(try !FileManager.default.contentsOfDirectory(atPath: outside.appendingPathComponent("c").path).isEmpty)
  }

  /// ```
  /// process A: run ──────────── writes entries ── exit 0
  /// process B: run ──────────── writes entries ── exit 0   (same cache, same moment)
  /// ```
  @Test func twoProcessesOnOneCacheBothSucceed() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let arguments = [
      "run", folder.appendingPathComponent("report.flow.json").path, "--cache",
      folder.appendingPathComponent(".flow-cache").path
    ]
    async let first = FlowProcess.run(arguments)
    async let second = FlowProcess.run(arguments)
    let (a, b) = try await (first, second)
    #expect(a.status == 0 && b.status == 0, "\(a)\n\(b)")
    #expect(a.stdout == b.stdout)
    let third = try await FlowProcess.run(arguments + ["--report"])
    #expect(third.stdout.contains("from cache (3): saveCSV, saveJSON, saveText"), "\(third)")
  }

  @Test func aCorruptEntryIsIgnoredWithAWarningAndReplaced() async throws {
    let folder = try Self.penguins()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = folder.appendingPathComponent(".flow-cache")
    let arguments = ["run", folder.appendingPathComponent("report.flow.json").path, "--cache", cache.path]
    let cold = try await FlowProcess.run(arguments)
    for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) {
      let url = cache.appendingPathComponent(name)
      var bytes = try [UInt8](Data(contentsOf: url))
      bytes[bytes.count - 1] ^= 0x10
      try Data(bytes).write(to: url)
    }
    let warm = try await FlowProcess.run(arguments)
    #expect(warm.status == 0)
    #expect(warm.stdout == cold.stdout)
    #expect(warm.stderr.contains("ignored (checksum mismatch)"), "\(warm)")
    let healed = try await FlowProcess.run(arguments)
    #expect(healed.stderr.isEmpty && healed.stdout == cold.stdout, "\(healed)")
  }

  @Test func cacheOptionsAreCheckedUp() async {
    let file = TestPaths.example("calculator.flow.json")
    let noCache = await FlowCommandLine.runInProcess(["run", file, "--cache-max", "1M"], registry: .standard)
    #expect(noCache.status == 64 && noCache.diagnostics.joined().contains("--cache-max needs --cache DIR"))
    let live = await FlowCommandLine.runInProcess(
      ["run", file, "--cache", "Examples/.flow-cache", "--live"], registry: .standard)
    #expect(live.status == 64)
    let badSize = await FlowCommandLine.runInProcess(
      ["run", file, "--cache", "Examples/.flow-cache", "--cache-max", "lots"],
      registry: .standard)
    #expect(badSize.status == 64)
    let action = await FlowCommandLine.runInProcess(["cache", "prune", "Examples"], registry: .standard)
    #expect(action.status == 64)
  }
}
