import FlowCommandLine
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// Random small pipelines over a generated CSV, with random edits between runs (a param, the
/// input file rewritten): every run with the cache prints what a run without it prints, and a
/// run that changed nothing runs nothing.
@Suite struct RunCachePropertyTests {
  /// One step of a chain: kind and params, made from a random number so an edit can redraw it.
  static func step(_ choice: Int, _ number: Int) -> (kind: String, params: String) {
    switch choice % 5 {
    case 0: ("filter", #"{"where": "x > \#(number % 50)"}"#)
    case 1: ("derive", #"{"columns": {"y": "x * \#(number % 7)", "z": "id + \#(number)"}}"#)
    case 2: ("sort", number % 2 == 0 ? #"{"by": ["-x", "id"]}"# : #"{"by": ["g", "id"]}"#)
    case 3: ("limit", #"{"count": \#(number % 20)}"#)
    default: ("groupBy", #"{"by": ["g"], "aggregate": {"n": "count()", "s": "sum(x)"}}"#)
    }
  }

  struct Pipeline {
    /// Per chain, per step: (choice, number).
    var chains: [[(Int, Int)]]

    func document() -> String {
      var nodes = [#"{"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"}}}"#]
      var edges: [String] = []
      for (chain, steps) in chains.enumerated() {
        var previous = "read"
        var grouped = false
        for (index, (choice, number)) in steps.enumerated() {
          // After a groupBy the columns are g, n, s: only sort by g and limit still apply.
          let effective = grouped ? (choice % 2 == 0 ? 3 : 2) : choice
          var (kind, params) = RunCachePropertyTests.step(effective, number)
          if grouped && kind == "sort" { params = #"{"by": ["g"]}"# }
          if kind == "groupBy" { grouped = true }
          let id = "c\(chain)s\(index)"
          nodes.append(#"{"id": "\#(id)", "data": {"kind": "\#(kind)", "params": \#(params)}}"#)
          edges.append(
            #"{"id": "e\#(id)", "sourceNodeID": "\#(previous)", "sourceHandleID": "table", "targetNodeID": "\#(id)", "targetHandleID": "table"}"#
          )
          previous = id
        }
        let count = "c\(chain)count"
        nodes.append(#"{"id": "\#(count)", "data": {"kind": "rowCount"}}"#)
        edges.append(
          #"{"id": "e\#(count)", "sourceNodeID": "\#(previous)", "sourceHandleID": "table", "targetNodeID": "\#(count)", "targetHandleID": "table"}"#
        )
        if steps.isEmpty || chain == 0 {
          let writer = "c\(chain)write"
          nodes.append(#"{"id": "\#(writer)", "data": {"kind": "writeCSV", "params": {"path": "out\#(chain).csv"}}}"#)
          edges.append(
            #"{"id": "e\#(writer)", "sourceNodeID": "\#(previous)", "sourceHandleID": "table", "targetNodeID": "\#(writer)", "targetHandleID": "table"}"#
          )
        }
      }
      return
        #"{"flowRuntime": {"formatVersion": 1}, "nodes": [\#(nodes.joined(separator: ","))], "edges": [\#(edges.joined(separator: ","))]}"#
    }
  }

  static func csv(_ random: inout SeededRandom) -> String {
    var text = "id,x,g\n"
    for id in 0..<Int.random(in: 5..<60, using: &random) {
      let x = Bool.random(using: &random) && id % 7 == 0 ? "" : String(Int.random(in: 0..<100, using: &random))
      text += "\(id),\(x),\(["a", "b", "c"].randomElement(using: &random)!)\n"
    }
    return text
  }

  static func outputs(_ folder: URL, cache: Bool) async -> (
    status: Int32, outputs: String, ran: [String], files: [Data?]
  ) {
    let arguments =
      ["run", folder.appendingPathComponent("doc.flow.json").path, "--format", "json", "--report"]
      + (cache ? ["--cache", folder.appendingPathComponent(".flow-cache").path] : [])
    let result = await FlowCommandLine.runInProcess(arguments, registry: NodeKindRegistry.standard)
    let root = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any]
    let outputs =
      (try? JSONSerialization.data(
        withJSONObject: [root?["outputs"] ?? [:], root?["errors"] ?? [:]], options: [.sortedKeys]))
    let report = root?["report"] as? [String: Any]
    let files = (0..<3).map { FileManager.default.contents(atPath: folder.appendingPathComponent("out\($0).csv").path) }
    return (
      result.status, String(decoding: outputs ?? Data(), as: UTF8.self), (report?["ran"] as? [String]) ?? [], files
    )
  }

  @Test(arguments: 0..<16) func outputsWithTheCacheEqualOutputsWithout(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flow-cache-property-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var pipeline = Pipeline(
      chains: (0..<Int.random(in: 1...3, using: &random)).map { _ in
        (0..<Int.random(in: 0...4, using: &random)).map { _ in
          (Int.random(in: 0..<5, using: &random), Int.random(in: 0..<1_000, using: &random))
        }
      })
    try Self.csv(&random).write(to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
    for round in 0..<4 {
      if round > 0 {
        // One random edit: a step's number, a step's kind, or the input file.
        let chain = Int.random(in: 0..<pipeline.chains.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where !pipeline.chains[chain].isEmpty:
          let index = Int.random(in: 0..<pipeline.chains[chain].count, using: &random)
          pipeline.chains[chain][index].1 = Int.random(in: 0..<1_000, using: &random)
        case 1 where !pipeline.chains[chain].isEmpty:
          let index = Int.random(in: 0..<pipeline.chains[chain].count, using: &random)
          pipeline.chains[chain][index].0 = Int.random(in: 0..<5, using: &random)
        default:
          let url = folder.appendingPathComponent("data.csv")
          try Self.csv(&random).write(to: url, atomically: true, encoding: .utf8)
          // A distinct modification time even within the file system's clock tick.
          try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(round))],
            ofItemAtPath: url.path)
        }
      }
      try pipeline.document().write(
        to: folder.appendingPathComponent("doc.flow.json"), atomically: true, encoding: .utf8)
      // Without the cache first: its writers change the targets, which the cached run notices.
      let plain = await Self.outputs(folder, cache: false)
      let cached = await Self.outputs(folder, cache: true)
      #expect(cached.status == plain.status, "seed \(seed) round \(round)")
      #expect(cached.outputs == plain.outputs, "seed \(seed) round \(round)\n\(pipeline.document())")
      #expect(cached.files == plain.files, "seed \(seed) round \(round)")
      // Nothing changed since the cached run: nothing runs.
      let again = await Self.outputs(folder, cache: true)
      #expect(again.ran.isEmpty && again.outputs == plain.outputs, "seed \(seed) round \(round): \(again.ran)")
    }
  }
}
