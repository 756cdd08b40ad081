import Foundation
import Testing

/// `flow layout`: layered positions and sizes written into the document, nothing else changed.
@Suite struct LayoutCommandTests {
  static let cylinder = TestPaths.example("cylinder.flow.json")

  static func object(_ text: String) throws -> [String: Any] {
    try #require(try parseJSON(text) as? [String: Any], "not a JSON object")
  }

  @Test(arguments: [TestPaths.example("calculator.flow.json"), cylinder])
  func onlyPositionsChange(file: String) async throws {
    let original = try await FlowProcess.run(["layout", file])
    #expect(original.status == 0, "\(original)")
    // The reference: the same document written without layout (validate → run `layout` on its own
    // output is idempotent in keys); compare every key but `position` against the input file.
    let input = try Self.object(
      try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent(file).path, encoding: .utf8))
    let output = try Self.object(original.stdout)
    let inputNodes = try #require(input["nodes"] as? [[String: Any]])
    let outputNodes = try #require(output["nodes"] as? [[String: Any]])
    #expect(inputNodes.count == outputNodes.count)
    for (before, after) in zip(inputNodes, outputNodes) {
      #expect(before["id"] as? String == after["id"] as? String)
      for key in before.keys where key != "position" && key != "size" {
        var value = before[key]
        if key == "data", var data = value as? [String: Any], data["params"] == nil {
          data["params"] = [String: Any]()  // the writer writes every key, an empty `params` too
          value = data
        }
        #expect((value as? NSObject) == (after[key] as? NSObject), "node \(before["id"]!) key \(key) changed")
      }
      #expect(after["position"] is [Any])
    }
    let inputEdges = try #require(input["edges"] as? [[String: Any]])
    let outputEdges = try #require(output["edges"] as? [[String: Any]])
    for (before, after) in zip(inputEdges, outputEdges) {
      for key in before.keys { #expect((before[key] as? NSObject) == (after[key] as? NSObject), "edge key \(key)") }
    }
    // Run on its own output, the layout is a fixed point, and the graph still evaluates the same.
    let again = try await FlowProcess.run(["layout", "-"], stdin: original.stdout)
    #expect(again.stdout == original.stdout)
    let runBefore = try await FlowProcess.run(["run", file])
    let runAfter = try await FlowProcess.run(["run", "-"], stdin: original.stdout)
    #expect(runBefore.stdout == runAfter.stdout)
  }

  @Test func nodesDoNotOverlapAtTheirDocumentSizesAndEdgesGoRight() async throws {
    let result = try await FlowProcess.run(["layout", TestPaths.example("calculator.flow.json")])
    let output = try Self.object(result.stdout)
    let nodes = try #require(output["nodes"] as? [[String: Any]])
    var rects: [String: (x: Double, y: Double, w: Double, h: Double)] = [:]
    for node in nodes {
      let position = try #require(node["position"] as? [Double])
      let size = try #require(node["size"] as? [Double])
      rects[node["id"] as! String] = (position[0], position[1], size[0], size[1])
    }
    let ids = rects.keys.sorted()
    for (i, a) in ids.enumerated() {
      for b in ids[(i + 1)...] {
        let r = rects[a]!, s = rects[b]!
        let apart = r.x + r.w <= s.x || s.x + s.w <= r.x || r.y + r.h <= s.y || s.y + s.h <= r.y
        #expect(apart, "\(a) overlaps \(b)")
      }
    }
    for edge in try #require(output["edges"] as? [[String: Any]]) {
      let source = rects[edge["sourceNodeID"] as! String]!, target = rects[edge["targetNodeID"] as! String]!
      #expect(source.x + source.w < target.x)
    }
  }

  @Test func groupsFrameTheirChildren() async throws {
    let result = try await FlowProcess.run(["layout", Self.cylinder])
    let nodes = try #require(try Self.object(result.stdout)["nodes"] as? [[String: Any]])
    let group = try #require(nodes.first { $0["id"] as? String == "inputs" })
    let groupPosition = try #require(group["position"] as? [Double])
    for child in nodes where child["parentID"] as? String == "inputs" {
      let position = try #require(child["position"] as? [Double])
      #expect(position[0] > groupPosition[0] && position[1] > groupPosition[1])
    }
  }

  @Test func outputOptionWritesTheFileAtomically() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("g.flow.json")
    try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent(Self.cylinder), to: file)
    let result = try await FlowProcess.run(["layout", file.path, "-o", file.path])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.isEmpty)
    let printed = try await FlowProcess.run(["layout", Self.cylinder])
    #expect(try String(contentsOf: file, encoding: .utf8) == printed.stdout)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["g.flow.json"], "no temporary file left")
  }

  @Test(arguments: [
    (["layout"], Int32(64)),
    (["layout", "a.json", "b.json"], Int32(64)),
    (["layout", "no-such-file.flow.json"], Int32(2)),
    (["layout", "Tests/CLITests/Fixtures/unknown-kind.flow.json"], Int32(2))
  ])
  func exitStatuses(arguments: [String], status: Int32) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == status, "\(result)")
    #expect(result.stdout.isEmpty)
  }
}
