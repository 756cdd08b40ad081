import Foundation
import Testing

/// `flow nodes`: the node kinds this build knows.
@Suite struct NodesCommandTests {
  static let standardKinds = ["number", "add", "subtract", "multiply", "divide", "expression", "group"]

  @Test func textListsEveryKind() async throws {
    let result = try await FlowProcess.run(["nodes"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    let headings = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    for kind in Self.standardKinds { #expect(headings.contains(kind), "no entry for \(kind)") }
    #expect(headings == headings.sorted())
  }

  @Test func textMatchesGolden() async throws {
    let result = try await FlowProcess.run(["nodes", "--format", "text"])
    GoldenFile.expect(result.stdout, matches: "nodes.txt")
  }

  @Test func jsonIsAnArrayOfKindsWithTheirPortsAndParams() async throws {
    let result = try await FlowProcess.run(["nodes", "--format", "json"])
    #expect(result.status == 0, "\(result)")
    let kinds = try #require(try parseJSON(result.stdout) as? [[String: Any]])
    let byName = Dictionary(
      kinds.compactMap { kind in (kind["name"] as? String).map { ($0, kind) } },
      uniquingKeysWith: { first, _ in first })
    #expect(byName.count == kinds.count, "every entry has a unique name")
    for name in Self.standardKinds { #expect(byName[name] != nil, "no entry for \(name)") }
    for kind in kinds {
      #expect(kind["inputs"] is [[String: Any]], "\(kind)")
      #expect(kind["outputs"] is [[String: Any]], "\(kind)")
      #expect(kind["params"] is [[String: Any]], "\(kind)")
    }
  }

  static func names(_ kind: [String: Any]?, _ key: String) -> [String] {
    ((kind?[key] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
  }

  @Test func jsonDescribesTheCalculatorVocabulary() async throws {
    let result = try await FlowProcess.run(["nodes", "--format=json"])
    let kinds = try #require(try parseJSON(result.stdout) as? [[String: Any]])
    func kind(_ name: String) -> [String: Any]? { kinds.first { $0["name"] as? String == name } }
    for name in ["add", "subtract", "multiply", "divide"] {
      #expect(Self.names(kind(name), "inputs") == ["a", "b"], "\(name)")
      #expect(Self.names(kind(name), "outputs") == ["result"], "\(name)")
    }
    let defaults = { (name: String) in
      ((kind(name)?["inputs"] as? [[String: Any]]) ?? []).compactMap { ($0["default"] as? NSNumber)?.doubleValue }
    }
    #expect(defaults("add") == [0, 0])
    #expect(defaults("multiply") == [1, 1])
    #expect(Self.names(kind("number"), "params") == ["value"])
    #expect(Self.names(kind("number"), "outputs") == ["value"])
    #expect(Self.names(kind("expression"), "params") == ["formula"])
    #expect(Self.names(kind("expression"), "outputs") == ["result"])
    #expect(Self.names(kind("group"), "inputs").isEmpty)
    #expect(Self.names(kind("group"), "outputs").isEmpty)
  }

  @Test(arguments: [
    ["nodes", "a.flow.json", "extra"], ["nodes", "--format", "xml"], ["nodes", "--all"], ["nodes", "--format"]
  ])
  func nodesMisuseIsAUsageError(arguments: [String]) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(!result.stderr.isEmpty)
  }
}
