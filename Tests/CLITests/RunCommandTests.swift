import Foundation
import Testing

/// `flow run` through the built binary (Reference.md, "The `flow` command line").
@Suite struct RunCommandTests {
  static let calculator = TestPaths.example("calculator.flow.json")
  static let cylinder = TestPaths.example("cylinder.flow.json")

  /// Runs `flow run` with `arguments` and `--format json`, and returns the parsed result.
  static func runJSON(
    _ arguments: [String], expecting status: Int32 = 0,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> RunOutput {
    let result = try await FlowProcess.run(["run"] + arguments + ["--format", "json"])
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    return try RunOutput(parsing: result.stdout)
  }

  /// `{"outputs": {node: {port: value}}, "errors": {node: message}}`, as JSONSerialization reads it.
  struct RunOutput {
    var outputs: [String: [String: Any]]
    var errors: [String: String]

    init(parsing text: String) throws {
      let root = try #require(try parseJSON(text) as? [String: Any], "not a JSON object: \(text)")
      #expect(Set(root.keys) == ["outputs", "errors"])
      outputs = try #require(root["outputs"] as? [String: [String: Any]], "bad outputs: \(text)")
      errors = try #require(root["errors"] as? [String: String], "bad errors: \(text)")
    }

    func number(_ node: String, _ port: String) -> Double? { (outputs[node]?[port] as? NSNumber)?.doubleValue }
    func string(_ node: String, _ port: String) -> String? { outputs[node]?[port] as? String }
  }

  static func isClose(_ actual: Double?, _ expected: Double) -> Bool {
    guard let actual else { return false }
    return abs(actual - expected) <= 1e-9 * max(1, abs(expected))
  }

  // MARK: - Text output

  @Test(arguments: [
    ([calculator], "run-calculator.txt"),
    ([cylinder], "run-cylinder.txt"),
    ([calculator, "--all"], "run-calculator-all.txt"),
    ([cylinder, "--all"], "run-cylinder-all.txt")
  ])
  func textOutputMatchesGolden(arguments: [String], golden: String) async throws {
    let result = try await FlowProcess.run(["run"] + arguments)
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    GoldenFile.expect(result.stdout, matches: golden)
  }

  @Test func explicitTextFormatIsTheDefault() async throws {
    let implicit = try await FlowProcess.run(["run", Self.calculator])
    let explicit = try await FlowProcess.run(["run", "--format=text", Self.calculator])
    #expect(explicit.status == 0)
    #expect(explicit.stdout == implicit.stdout)
  }

  @Test func textLinesAreSortedAndShaped() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--all"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 8)
    #expect(lines == lines.sorted())
    for line in lines { #expect(line.wholeMatch(of: /[A-Za-z]+\.[a-z]+ = -?[0-9.e+-]+/) != nil, "\(line)") }
  }

  @Test func textIsSortedByNodeIDThenPort() async throws {
    // Whole-line sorting would put "n-2.value" before "n.value" ('-' sorts before '.').
    let result = try await FlowProcess.run(["run", TestPaths.fixture("sort-order.flow.json")])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == "N.value = 0\nn.value = 1\nn-2.value = 2\nn2.value = 3\n")
  }

  @Test func documentIsReadFromStandardInputForDash() async throws {
    let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(Self.calculator), encoding: .utf8)
    let result = try await FlowProcess.run(["run", "-"], stdin: text)
    #expect(result.status == 0, "\(result)")
    GoldenFile.expect(result.stdout, matches: "run-calculator.txt")
  }

  // MARK: - JSON output

  @Test func calculatorJSONHasTheSinkValues() async throws {
    let output = try await Self.runJSON([Self.calculator])
    #expect(output.errors.isEmpty)
    #expect(Set(output.outputs.keys) == ["perPerson", "tip"])
    #expect(Self.isClose(output.number("perPerson", "result"), 20))
    #expect(Self.isClose(output.number("tip", "result"), 9))
  }

  @Test func cylinderJSONHasTheRatioAndNoGroup() async throws {
    let output = try await Self.runJSON([Self.cylinder])
    #expect(output.errors.isEmpty)
    #expect(Set(output.outputs.keys) == ["ratio"])
    #expect(Self.isClose(output.number("ratio", "result"), 5.0 / 7.0))
  }

  @Test func allPrintsEveryNodeWithOutputs() async throws {
    let output = try await Self.runJSON([Self.cylinder, "--all"])
    #expect(Set(output.outputs.keys) == ["radius", "height", "circleArea", "volume", "surface", "ratio"])
    #expect(Self.isClose(output.number("circleArea", "result"), 4 * Double.pi))
    #expect(Self.isClose(output.number("volume", "result"), 20 * Double.pi))
    #expect(Self.isClose(output.number("surface", "result"), 28 * Double.pi))
  }

  @Test func calculatorAllHasEveryIntermediateValue() async throws {
    let output = try await Self.runJSON([Self.calculator, "--all"])
    let expected: [String: Double] = [
      "price": 12.5, "quantity": 4, "taxRate": 0.2, "subtotal": 50, "tax": 10,
      "total": 60, "perPerson": 20, "tip": 9
    ]
    #expect(Set(output.outputs.keys) == Set(expected.keys))
    for (node, value) in expected {
      let port = ["price", "quantity", "taxRate"].contains(node) ? "value" : "result"
      #expect(Self.isClose(output.number(node, port), value), "\(node).\(port)")
    }
  }

  // MARK: - --node

  @Test func repeatedNodeOptionPrintsExactlyThoseNodes() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--node", "tax", "--node=price"])
    #expect(result.status == 0)
    #expect(result.stdout == "price.value = 12.5\ntax.result = 10\n")
    let output = try await Self.runJSON([Self.calculator, "--node", "subtotal", "--node", "tip"])
    #expect(Set(output.outputs.keys) == ["subtotal", "tip"])
  }

  @Test func nodeOptionOnAGroupPrintsNothing() async throws {
    let result = try await FlowProcess.run(["run", Self.cylinder, "--node", "inputs"])
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [["--node", "missing"], ["--node", "tax", "--node", "missing"]])
  func unknownNodeIsAUsageErrorNamingIt(options: [String]) async throws {
    let result = try await FlowProcess.run(["run", Self.calculator] + options)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("'missing'"))
  }

  // MARK: - --set

  @Test func setChangesTheResults() async throws {
    let output = try await Self.runJSON([Self.calculator, "--set", "quantity.value=10"])
    #expect(Self.isClose(output.number("perPerson", "result"), 50))
    #expect(Self.isClose(output.number("tip", "result"), 22.5))
  }

  @Test func laterSetsApplyInOrder() async throws {
    let output = try await Self.runJSON([
      Self.calculator, "--set", "quantity.value=10", "--set=quantity.value=2",
      "--set", "perPerson.b=4"
    ])
    #expect(Self.isClose(output.number("perPerson", "result"), 7.5))
  }

  @Test func setOnAConnectedInputIsIgnored() async throws {
    // `a` of perPerson is fed by total: the edge wins over the param (Reference.md, "Documents").
    let output = try await Self.runJSON([Self.calculator, "--set", "perPerson.a=1000"])
    #expect(Self.isClose(output.number("perPerson", "result"), 20))
  }

  @Test func setWithABareWordSetsAString() async throws {
    // `r` is not JSON, so it is the string "r": circleArea's formula becomes just its input.
    let output = try await Self.runJSON([
      Self.cylinder, "--set", "circleArea.formula=r",
      "--node", "circleArea", "--node", "volume"
    ])
    #expect(Self.isClose(output.number("circleArea", "result"), 2))
    #expect(Self.isClose(output.number("volume", "result"), 10))
  }

  @Test func setWithAQuotedJSONStringWorksToo() async throws {
    let output = try await Self.runJSON([
      Self.cylinder, "--set", "circleArea.formula=\"r * 3\"",
      "--node", "circleArea"
    ])
    #expect(Self.isClose(output.number("circleArea", "result"), 6))
  }

  @Test(arguments: ["ten", "\"10\"", "true", "[1]"])
  func setGivingANumberParamANonNumberIsAUsageErrorNamingTheArgument(value: String) async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--set", "quantity.value=\(value)"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.hasPrefix("flow: --set quantity.value="), "blamed on the argument, not the file: \(result.stderr)")
    #expect(result.stderr.contains("'quantity'"))
    #expect(result.stderr.contains("'value'"))
    #expect(!result.stderr.contains("calculator.flow.json"))
  }

  @Test func setOfAnUnknownParamIsAUsageError() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--set", "quantity.colour=red"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("--set quantity.colour=red"))
    #expect(result.stderr.contains("'colour'"))
  }

  @Test func setOnAConnectedInputWarnsAndTheEdgeWins() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--set", "subtotal.a=100"])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.contains("warning"))
    #expect(result.stderr.contains("'a'") && result.stderr.contains("'subtotal'"))
    GoldenFile.expect(result.stdout, matches: "run-calculator.txt")
  }

  @Test func setOfAnUnknownNodeSuggestsTheClosestID() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--set", "quantty.value=3"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stderr.contains("did you mean 'quantity'?"))
  }

  @Test(arguments: [
    "quantity", "quantity.value", "quantityvalue=3", ".value=1", "quantity.=1", "=1",
    "ghost.value=1"
  ])
  func malformedSetIsAUsageError(assignment: String) async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--set", assignment])
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(assignment))
  }

  // MARK: - Failures

  @Test func divisionByZeroFailsOnlyItsBranch() async throws {
    let output = try await Self.runJSON([TestPaths.fixture("division-by-zero.flow.json")], expecting: 1)
    #expect(output.errors.keys.sorted() == ["quotient", "scaled", "shifted"])
    #expect(output.errors["quotient"]?.contains("division by zero") == true)
    #expect(output.errors["shifted"] == "upstream error from quotient")
    #expect(output.errors["scaled"] == "upstream error from quotient")
    #expect(Set(output.outputs.keys) == ["unrelated"])
    #expect(Self.isClose(output.number("unrelated", "result"), 7))
  }

  @Test func divisionByZeroTextMatchesGolden() async throws {
    let result = try await FlowProcess.run(["run", TestPaths.fixture("division-by-zero.flow.json")])
    #expect(result.status == 1)
    GoldenFile.expect(result.stdout, matches: "run-division-by-zero.txt")
  }

  /// Reference.md, "The `flow` command line": `errors` lists the failures among the nodes the run computed; demand-driven, a
  /// run of `--node numerator` computes only `numerator`'s ancestors, which cannot fail.
  @Test func errorsListTheFailuresAmongTheComputedNodes() async throws {
    let output = try await Self.runJSON([TestPaths.fixture("division-by-zero.flow.json"), "--node", "numerator"])
    #expect(Set(output.outputs.keys) == ["numerator"])
    #expect(output.errors.isEmpty, "quotient and its descendants were not computed")
    let shown = try await Self.runJSON(
      [TestPaths.fixture("division-by-zero.flow.json"), "--node", "shifted"], expecting: 1)
    #expect(shown.errors.keys.sorted() == ["quotient", "shifted"], "scaled depends on shifted, not the reverse")
  }

  @Test func setCanRepairAFailure() async throws {
    let output = try await Self.runJSON([TestPaths.fixture("division-by-zero.flow.json"), "--set", "zero.value=3"])
    #expect(output.errors.isEmpty)
    #expect(Self.isClose(output.number("scaled", "result"), 6))
  }

  @Test func nonFiniteNumbersAreStringsInJSON() async throws {
    let output = try await Self.runJSON([TestPaths.fixture("non-finite.flow.json")])
    #expect(output.errors.isEmpty)
    #expect(output.string("notANumber", "result") == "nan")
    #expect(output.string("huge", "result") == "inf")
    #expect(output.string("negativeHuge", "result") == "-inf")
  }

  // MARK: - --report

  @Test func reportInTextIsABlockAfterTheOutputs() async throws {
    let result = try await FlowProcess.run(["run", Self.calculator, "--report"])
    #expect(result.status == 0, "\(result)")
    let golden = try String(contentsOf: GoldenFile.url("run-calculator.txt"), encoding: .utf8)
    #expect(result.stdout.hasPrefix(golden + "report:\n"))
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let ran = try #require(lines.first { $0.hasPrefix("  ran (8, in order): ") })
    let order = ran.dropFirst("  ran (8, in order): ".count).split(separator: ", ").map {
      String($0.split(separator: " ")[0])
    }
    #expect(order.count == 8)
    #expect(order.firstIndex(of: "subtotal")! < order.firstIndex(of: "tax")!)
    #expect(order.firstIndex(of: "total")! < order.firstIndex(of: "perPerson")!)
    #expect(lines.contains("  cut off (0):"))
    #expect(lines.contains("  failed (0):"))
    #expect(lines.contains { $0.hasPrefix("  pass: ") && $0.hasSuffix(" ms") })
  }

  @Test func reportNamesFailuresAndSkippedNodes() async throws {
    let result = try await FlowProcess.run([
      "run", TestPaths.fixture("division-by-zero.flow.json"), "--report", "--format", "json"
    ])
    #expect(result.status == 1, "\(result)")
    let root = try #require(try parseJSON(result.stdout) as? [String: Any])
    let report = try #require(root["report"] as? [String: Any])
    let ran = try #require(report["ran"] as? [String])
    let failed = try #require(report["failed"] as? [String: String])
    let skipped = try #require(report["skipped"] as? [String: String])
    let errors = try #require(root["errors"] as? [String: String])
    #expect(Set(failed.keys).union(skipped.keys) == Set(errors.keys))
    for (id, message) in failed { #expect(ran.contains(id)); #expect(message == errors[id]) }
    for (id, message) in skipped { #expect(!ran.contains(id)); #expect(message.hasPrefix("upstream error from ")) }
    let durations = try #require(report["durations"] as? [String: Double])
    #expect(Set(durations.keys) == Set(ran))
    #expect((report["duration"] as? Double).map { $0 >= 0 } == true)
    #expect(report["cutOff"] is [String])
  }

  @Test func withoutReportJSONHasOnlyOutputsAndErrors() async throws {
    let output = try await Self.runJSON([Self.calculator])
    #expect(output.outputs.keys.sorted() == ["perPerson", "tip"])
  }
}
