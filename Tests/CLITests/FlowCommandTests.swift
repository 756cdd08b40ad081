import Testing

/// `flow` itself: picking the subcommand, help, and usage errors (exit status 64).
@Suite struct FlowCommandTests {
  @Test func noArgumentsPrintsHelpAndExitsZero() async throws {
    // swift-argument-parser's habit for a command group.
    let result = try await FlowProcess.run([])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    GoldenFile.expect(result.stdout, matches: "flow-help.txt")
  }

  @Test func unknownCommandIsAUsageErrorNamingIt() async throws {
    let result = try await FlowProcess.run(["frobnicate", "x.json"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("'frobnicate'"))
  }

  @Test(arguments: ["--help", "-h", "help"])
  func topLevelHelpExitsZero(flag: String) async throws {
    let result = try await FlowProcess.run([flag])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty)
    GoldenFile.expect(result.stdout, matches: "flow-help.txt")
  }

  @Test func topLevelHelpListsEveryCommandAndTheExitStatuses() async throws {
    let result = try await FlowProcess.run(["--help"])
    for command in ["run", "validate", "nodes", "render", "layout", "calc", "help"] {
      #expect(result.stdout.contains("  \(command) "))
    }
    for status in ["0", "1", "2", "64"] { #expect(result.stdout.contains(status)) }
  }

  @Test(arguments: [
    ("run", ["FILE", "--set", "--node", "--all", "--format", "--help"]),
    ("validate", ["FILE", "--help"]),
    ("nodes", ["--format", "--help"]),
    ("render", ["ARGUMENTS:", "FILE", "--format", "--values", "--layout", "-o, --output", "--help"]),
    ("layout", ["ARGUMENTS:", "FILE", "-o, --output", "--help"]),
    ("calc", ["node ID KIND", "connect", "disconnect", "undo", "save FILE", "--help"])
  ])
  func subcommandHelpExitsZeroAndListsItsOptions(command: String, options: [String]) async throws {
    for flag in ["--help", "-h"] {
      let result = try await FlowProcess.run([command, flag])
      #expect(result.status == 0, "\(result)")
      #expect(result.stderr.isEmpty)
      #expect(result.stdout.hasPrefix("OVERVIEW: "))
      #expect(result.stdout.contains("\nUSAGE: flow \(command)"))
      #expect(result.stdout.contains("\nOPTIONS:\n"))
      for option in options { #expect(result.stdout.contains(option), "\(command) --help should list \(option)") }
      GoldenFile.expect(result.stdout, matches: "\(command)-help.txt")
    }
  }

  @Test(arguments: ["run", "validate", "nodes", "render", "layout"])
  func unknownOptionIsAUsageErrorNamingIt(command: String) async throws {
    let result = try await FlowProcess.run([command, "Examples/calculator.flow.json", "--frobnicate"])
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("'--frobnicate'"))
  }

  @Test(arguments: [
    ["run"],
    ["run", "a.json", "b.json"],
    ["run", "Examples/calculator.flow.json", "--format", "yaml"],
    ["run", "Examples/calculator.flow.json", "--format", "json", "--format", "text"],
    ["run", "Examples/calculator.flow.json", "--node"],
    ["run", "Examples/calculator.flow.json", "--all=1"]
  ])
  func runMisuseIsAUsageError(arguments: [String]) async throws {
    let result = try await FlowProcess.run(arguments)
    #expect(result.status == 64, "\(result)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("flow: "))
  }

  @Test func usageErrorWinsOverAMissingFile() async throws {
    let result = try await FlowProcess.run(["run", "no-such-file.json", "--bogus"])
    #expect(result.status == 64)
  }
}
