import Foundation
import Testing

/// `flow calc`'s `save` writes what it loaded as it was read, and the nodes it made in full;
/// `show` prints the commands that rebuild the graph with each record in its order.
@Suite struct CalcSaveTests {
  /// A hand-written document: no handles, keys in no usual order, unknown keys at every level,
  /// an integer past 2^53, a number written with a trailing zero, a derive whose columns depend
  /// on their order.
  static let document = """
    {
      "zoom": 1,
      "nodes": [
        {"data": {"params": {"value": 9007199254740993}, "kind": "number"}, "id": "big", "note": "kept",
         "position": [0, 0]},
        {"id": "rate", "position": [0, 80], "data": {"kind": "number", "params": {"value": 1.50}}},
        {"id": "t", "position": [200, 0], "data": {"kind": "readCSV", "params": {"path": "data.csv"}}},
        {"id": "d", "position": [400, 0],
         "data": {"kind": "derive", "params": {"columns": {"z": "x * 10", "a": "z + 1"}}, "mine": [1, 2]}}
      ],
      "edges": [{"targetNodeID": "d", "sourceNodeID": "t", "id": "e1", "targetHandleID": "table", "extra": {"b": 1, "a": 2}}],
      "x-editor": {"theme": "dark", "grid": 8}
    }

    """

  /// A load and a save write the document as every writer does (SwiftFlow's full form, known
  /// keys as SwiftFlow orders them): the unknown keys where they were, records in the order
  /// read, integers digit for digit, and no handles the file did not have; a second load and
  /// save write the same bytes.
  @Test func aLoadAndASaveKeepTheMeaningAndASecondChangesNoByte() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calc-save-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = folder.appendingPathComponent("in.flow.json")
    let once = folder.appendingPathComponent("once.flow.json"), twice = folder.appendingPathComponent("twice.flow.json")
    try Data(Self.document.utf8).write(to: original)
    try Data("x\n1\n2\n".utf8).write(to: folder.appendingPathComponent("data.csv"))
    let first = try await CalcCommandTests.session(["load \(original.path)", "save \(once.path)"])
    let second = try await CalcCommandTests.session(["load \(once.path)", "save \(twice.path)"])
    #expect(first.stderr.isEmpty && second.stderr.isEmpty, "\(first) \(second)")
    let written = try String(contentsOf: once, encoding: .utf8)
    #expect(try String(contentsOf: twice, encoding: .utf8) == written)
    #expect(!written.contains("handles"), "no handles the file did not have")
    #expect(written.contains("9007199254740993") && written.contains(#""note" : "kept""#))
    for pair in [
      ("\"z\" : \"x * 10\"", "\"a\" : \"z + 1\""), ("\"b\" : 1", "\"a\" : 2"), ("\"theme\"", "\"grid\""),
      ("\"zoom\" : 1", "\"nodes\"")
    ] {
      let first = try #require(written.range(of: pair.0)), then = try #require(written.range(of: pair.1))
      #expect(first.lowerBound < then.lowerBound, "\(pair.0) before \(pair.1), as read")
    }
    let run = try await FlowProcess.run(["run", once.path])
    let reference = try await FlowProcess.run(["run", original.path])
    #expect(run.status == 0 && run.stdout == reference.stdout, "\(run)")
  }

  @Test func aNodeMadeInTheSessionIsSavedWithItsHandlesBesideTheLoadedOnes() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calc-save-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = folder.appendingPathComponent("in.flow.json"), copy = folder.appendingPathComponent("out.flow.json")
    try Data(Self.document.utf8).write(to: original)
    try Data("x\n1\n2\n".utf8).write(to: folder.appendingPathComponent("data.csv"))
    let session = try await CalcCommandTests.session([
      "load \(original.path)", "node twice multiply b=2",
      "connect rate.value twice.a", "save \(copy.path)"
    ])
    #expect(session.stderr.isEmpty, "\(session)")
    let written = try String(contentsOf: copy, encoding: .utf8)
    let nodes = try #require(
      (try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])?["nodes"] as? [[String: Any]])
    #expect(nodes.map { $0["id"] as? String } == ["big", "rate", "t", "d", "twice"])
    #expect(nodes.last?["handles"] != nil, "the new node carries its handles for SwiftFlow editors")
    #expect(nodes.dropLast().allSatisfy { $0["handles"] == nil }, "the loaded nodes are as they were read")
    let run = try await FlowProcess.run(["run", copy.path])
    #expect(run.status == 0 && run.stdout.contains("twice.result = 3"), "\(run)")
  }

  @Test func showPrintsARecordParamInItsOrderSoTheCommandsRebuildTheGraph() async throws {
    let command = #"node d derive columns={"z":"x*10","a":"z+1"}"#
    let session = try await CalcCommandTests.session([command, "show", "show d"])
    #expect(session.stdout.contains(command + "\n"), "\(session)")
    #expect(session.stdout.contains(#"    columns = {"z":"x*10","a":"z+1"}"#), "\(session)")
  }
}
