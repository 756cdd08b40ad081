import Foundation
import Testing

/// `Examples/subgraphs/` (a library of two definitions imported by a calculator and a
/// pipeline) and every command on documents with subgraphs (Reference.md, "Subgraphs").
@Suite struct SubgraphCommandTests {
  static let folder = "Examples/subgraphs/"

  /// The monthly payment of a loan, written out here.
  static func payment(_ principal: Double, rate: Double, years: Double) -> Double {
    let monthly = rate / 12
    return principal * monthly / (1 - pow(1 + monthly, -years * 12))
  }

  static func outputs(_ stdout: String) throws -> [String: [String: Any]] {
    let root = try #require(try parseJSON(stdout) as? [String: Any])
    return try #require(root["outputs"] as? [String: [String: Any]])
  }

  @Test func theCalculatorImportsTheLoanDefinition() async throws {
    let result = try await FlowProcess.run(["run", Self.folder + "calculator.flow.json", "--format", "json"])
    #expect(result.status == 0, "\(result)")
    let total = try #require(try Self.outputs(result.stdout)["monthly"]?["result"] as? Double)
    let expected = Self.payment(300_000, rate: 0.04, years: 30) + Self.payment(24_000, rate: 0.07, years: 5)
    #expect(abs(total - expected) < 1e-9 * expected)
  }

  @Test func innerNodesAreAddressedAndSetByPath() async throws {
    let result = try await FlowProcess.run([
      "run", Self.folder + "calculator.flow.json", "--format", "json",
      "--set", "house/rate.value=0.03", "--node", "house", "--node", "house/monthly"
    ])
    #expect(result.status == 0, "\(result)")
    let outputs = try Self.outputs(result.stdout)
    #expect(Set(outputs.keys) == ["house", "house/monthly"])
    let payment = try #require(outputs["house"]?["payment"] as? Double)
    #expect(abs(payment - Self.payment(300_000, rate: 0.03, years: 30)) < 1e-6)
    #expect(outputs["house/monthly"]?["result"] as? Double == payment)
  }

  @Test func thePipelineCleansTheCSVThroughTheImportedStep() async throws {
    let result = try await FlowProcess.run(["run", Self.folder + "pipeline.flow.json", "--format", "json"])
    #expect(result.status == 0, "\(result)")
    let rows = try #require(try Self.outputs(result.stdout)["byRegion"]?["table"] as? [[String: Any]])
    #expect(rows.map { $0["region"] as? String } == ["north", "south", "east"])
    // 10.5×2 + 4×1; 7.25×4; 3×3 (blank and negative dropped)
    #expect(rows.map { $0["total"] as? Double } == [25, 29, 9])
  }

  @Test func nodesValidateAndRenderSeeTheSubgraphKinds() async throws {
    let nodes = try await FlowProcess.run(["nodes", Self.folder + "calculator.flow.json"])
    #expect(nodes.status == 0, "\(nodes)")
    #expect(nodes.stdout.contains("loanPayment — monthly payment of a loan"))
    #expect(nodes.stdout.contains("inputs:  principal: number (required), rate: number = 0.05, years: number = 30"))
    #expect(nodes.stdout.contains("cleanSales") && nodes.stdout.contains("outputs: clean: table"))
    let validate = try await FlowProcess.run(["validate", Self.folder + "pipeline.flow.json"])
    #expect(validate.status == 0 && validate.stdout.contains("valid (3 nodes, 2 edges; 2 subgraphs, "), "\(validate)")
    let render = try await FlowProcess.run(["render", Self.folder + "calculator.flow.json", "--format", "mermaid"])
    #expect(render.status == 0, "\(render)")
    #expect(render.stdout.contains("house<br/>loanPayment") && !render.stdout.contains("house/monthly"))
  }

  @Test func renderExpandDrawsEachInstancesInsideInEveryFormat() async throws {
    let file = Self.folder + "calculator.flow.json"
    let svg = try await FlowProcess.run(["render", file, "--expand", "--values"])
    #expect(svg.status == 0, "\(svg)")
    for id in ["house", "car"] {
      #expect(svg.stdout.contains("<g class=\"subgraph\" data-id=\"\(id)\""), "\(id) framed")
      for inner in ["principal", "rate", "years", "monthly", "payment"] {
        #expect(svg.stdout.contains("data-id=\"\(id)/\(inner)\""), "\(id)/\(inner) drawn")
      }
    }
    #expect(svg.stdout.contains("class=\"node port-marker\" data-id=\"car/principal\""))
    // The inner node's value, by path (car: 24000 at 7% over 5 years).
    #expect(svg.stdout.contains("result = 475.2287649683874"))
    let dot = try await FlowProcess.run(["render", file, "--expand", "--format", "dot"])
    #expect(dot.status == 0, "\(dot)")
    #expect(
      dot.stdout.contains("subgraph \"cluster_car\" {") && dot.stdout.contains("\"carPrice\" -> \"car/principal\""))
    #expect(dot.stdout.contains("\"car/payment\" -> \"monthly\"") && !dot.stdout.contains("\"car\" ["))
    let mermaid = try await FlowProcess.run(["render", file, "--expand", "--format", "mermaid", "--values"])
    #expect(mermaid.status == 0, "\(mermaid)")
    #expect(
      mermaid.stdout.contains("subgraph s2[\"car · loanPayment")
        && mermaid.stdout.contains("n1 -->|\"value → principal\"| n2_0"))
    // Without --expand, one node per instance (as before).
    let plain = try await FlowProcess.run(["render", file, "--format", "dot"])
    #expect(!plain.stdout.contains("cluster_") && !plain.stdout.contains("car/principal"))
  }

  @Test func failuresAndReportsNameInnerNodesByPath() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subgraph-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let library = try String(
      contentsOfFile: TestPaths.packageRoot.path + "/" + Self.folder + "library.flow.json", encoding: .utf8)
    try library.write(toFile: folder + "/library.flow.json", atomically: true, encoding: .utf8)
    let document = """
      {"nodes": [{"id": "free", "data": {"kind": "loanPayment", "params": {"principal": 1000, "rate": 0}}},
                 {"id": "after", "data": {"kind": "add", "params": {"b": 1}}}],
       "edges": [{"id": "t1", "sourceNodeID": "free", "sourceHandleID": "payment", "targetNodeID": "after", "targetHandleID": "a"}],
       "flowRuntime": {"imports": ["library.flow.json"]}}
      """
    try document.write(toFile: folder + "/zero.flow.json", atomically: true, encoding: .utf8)
    let result = try await FlowProcess.run(["run", folder + "/zero.flow.json", "--report"])
    // rate 0 divides by zero inside the definition: the inner root fails, the instance and
    // what it feeds report it by path.
    #expect(result.status == 1, "\(result)")
    #expect(result.stdout.contains("free/monthly ! division by zero"))
    let json = try await FlowProcess.run(["run", folder + "/zero.flow.json", "--format", "json"])
    let errors = try #require((try parseJSON(json.stdout) as? [String: Any])?["errors"] as? [String: String])
    #expect(
      errors == [
        "free/monthly": "division by zero", "free": "upstream error from free/monthly",
        "after": "upstream error from free/monthly"
      ])  // demand-driven: the output node feeds nothing printed
    #expect(
      result.stdout.contains("failed (1): free/monthly (division by zero)"),
      "the report names the inner node by its path")
    let outside = """
      {"nodes": [], "edges": [], "flowRuntime": {"imports": ["../elsewhere/library.flow.json"]}}
      """
    try outside.write(toFile: folder + "/outside.flow.json", atomically: true, encoding: .utf8)
    let refused = try await FlowProcess.run(["run", folder + "/outside.flow.json"])
    #expect(refused.status == 2, "\(refused)")
    #expect(refused.stderr.contains("import '../elsewhere/library.flow.json'"))
  }

  @Test func calcLoadsTheDocumentAndCreatesInstances() async throws {
    let script =
      "load \(Self.folder)calculator.flow.json\nnode extra loanPayment principal=12000 years=1 rate=0.12\nquit\n"
    let result = try await FlowProcess.run(["calc"], stdin: script)
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.contains("monthly.result = "))
    #expect(result.stdout.contains("extra.payment = "), "\(result.stdout)")
  }

  /// `--max-inlined-nodes N` bounds what instances inline, on every command that expands a
  /// document; the refusal names the option that raises it.
  @Test func theInlinedNodeLimitIsAnOptionNamedInTheRefusal() async throws {
    let file = Self.folder + "calculator.flow.json"
    for command in [["validate", file], ["run", file], ["nodes", file], ["render", file]] {
      let refused = try await FlowProcess.run(command + ["--max-inlined-nodes", "5"])
      #expect(refused.status == 2, "\(command) \(refused)")
      #expect(refused.stderr.contains("at most 5 are allowed"), "\(command) \(refused)")
      #expect(refused.stderr.contains("--max-inlined-nodes N raises the limit"), "\(command) \(refused)")
      let allowed = try await FlowProcess.run(command + ["--max-inlined-nodes", "100"])
      #expect(allowed.status == 0, "\(command) \(allowed)")
    }
    let bad = try await FlowProcess.run(["validate", file, "--max-inlined-nodes", "0"])
    #expect(
      bad.status == 64 && bad.stderr == "flow: --max-inlined-nodes expects a whole number ≥ 1, got '0'\n", "\(bad)")
  }
}
