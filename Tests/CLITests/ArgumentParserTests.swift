import Testing
@testable import FlowCommandLine

/// The table-driven parser, in process, against a demo spec shaped like `flow run`'s.
@Suite struct ArgumentParserTests {
  static let spec = CommandSpec(
    name: "demo", summary: "A command for the parser tests.", positionals: ["FILE"],
    options: [
      OptionSpec(name: "--set", arity: .repeated, valueName: "KEY=VALUE", help: "set something"),
      OptionSpec(name: "--name", arity: .single, valueName: "NAME", help: "a single value"),
      OptionSpec(name: "--format", arity: .single, valueName: "text|json", help: "a choice", choices: ["text", "json"]),
      OptionSpec(name: "--all", arity: .flag, help: "a flag")
    ])

  static func parse(_ arguments: [String], as spec: CommandSpec = spec) throws(UsageError) -> ParsedArguments {
    try ArgumentParser.parse(arguments, as: spec)
  }

  // MARK: - Accepted forms

  @Test(arguments: [
    ["file", "--name", "x"],
    ["file", "--name=x"],
    ["--name", "x", "file"],
    ["--name=x", "file"]
  ])
  func optionValueMayBeSeparateOrInline(arguments: [String]) throws {
    let parsed = try Self.parse(arguments)
    #expect(parsed.value("--name") == "x")
    #expect(parsed.positionals == ["file"])
  }

  @Test func inlineValueKeepsLaterEqualsSigns() throws {
    let parsed = try Self.parse(["file", "--set=node.param=\"a=b\""])
    #expect(parsed.all("--set") == ["node.param=\"a=b\""])
  }

  @Test func inlineValueMayBeEmpty() throws {
    let parsed = try Self.parse(["file", "--name="])
    #expect(parsed.value("--name") == "")
  }

  @Test func repeatedOptionKeepsEveryValueInOrder() throws {
    let parsed = try Self.parse(["--set", "a=1", "file", "--set=b=2", "--set", "c=3"])
    #expect(parsed.all("--set") == ["a=1", "b=2", "c=3"])
    #expect(parsed.positionals == ["file"])
  }

  @Test func absentOptionHasNoValue() throws {
    let parsed = try Self.parse(["file"])
    #expect(parsed.value("--name") == nil)
    #expect(parsed.all("--set") == [])
    #expect(!parsed.has("--all"))
    #expect(!parsed.wantsHelp)
  }

  @Test func flagIsRecordedWithoutConsumingTheNextArgument() throws {
    let parsed = try Self.parse(["--all", "file"])
    #expect(parsed.has("--all"))
    #expect(parsed.positionals == ["file"])
  }

  @Test func valueFromTheChoicesIsAccepted() throws {
    #expect(try Self.parse(["file", "--format", "json"]).value("--format") == "json")
    #expect(try Self.parse(["file", "--format=text"]).value("--format") == "text")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try Self.parse(["--all", "--", "--name"])
    #expect(parsed.positionals == ["--name"])
    #expect(parsed.has("--all"))
    #expect(parsed.value("--name") == nil)
  }

  @Test func doubleDashLetsAPositionalLookLikeHelp() throws {
    let parsed = try Self.parse(["--", "--help"])
    #expect(parsed.positionals == ["--help"])
    #expect(!parsed.wantsHelp)
  }

  @Test func singleDashIsAPositional() throws {
    #expect(try Self.parse(["-"]).positionals == ["-"])
  }

  @Test(arguments: [["--help"], ["-h"], ["file", "--help"], ["--help", "a", "b", "c"], ["--name", "x", "-h"]])
  func helpIsRecognizedWithoutCheckingPositionals(arguments: [String]) throws {
    #expect(try Self.parse(arguments).wantsHelp)
  }

  // MARK: - Errors

  struct Misuse: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    /// Words the message must contain (the option concerned, first).
    var mentions: [String]
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let misuses: [Misuse] = [
    Misuse(arguments: ["file", "--bogus"], mentions: ["'--bogus'", "unknown option", "flow demo"]),
    Misuse(arguments: ["file", "--bogus=1"], mentions: ["'--bogus'", "unknown option"]),
    Misuse(arguments: ["file", "-x"], mentions: ["'-x'", "unknown option"]),
    Misuse(arguments: ["file", "--name"], mentions: ["'--name'", "needs a value", "NAME"]),
    Misuse(arguments: ["file", "--set"], mentions: ["'--set'", "needs a value"]),
    Misuse(arguments: ["file", "--format", "xml"], mentions: ["'--format'", "'xml'", "text, json"]),
    Misuse(arguments: ["file", "--format=xml"], mentions: ["'--format'", "'xml'"]),
    Misuse(arguments: ["file", "--format="], mentions: ["'--format'", "one of"]),
    Misuse(arguments: ["file", "--name", "a", "--name", "b"], mentions: ["'--name'", "more than once"]),
    Misuse(arguments: ["file", "--format=json", "--format", "json"], mentions: ["'--format'", "more than once"]),
    Misuse(arguments: ["file", "--all=yes"], mentions: ["'--all'", "takes no value"]),
    Misuse(arguments: [], mentions: ["FILE", "flow demo"]),
    Misuse(arguments: ["--all"], mentions: ["FILE"]),
    Misuse(arguments: ["file", "other"], mentions: ["'other'", "flow demo"])
  ]

  @Test(arguments: misuses)
  func misuseIsAUsageErrorThatNamesTheCulprit(_ misuse: Misuse) {
    let error = #expect(throws: UsageError.self) { try Self.parse(misuse.arguments) }
    for word in misuse.mentions {
      #expect(error?.message.contains(word) == true, "\(error?.message ?? "no error") should mention \(word)")
    }
  }

  @Test func tooManyPositionalsNamesTheFirstExtraOne() {
    let error = #expect(throws: UsageError.self) { try Self.parse(["a", "b", "c"]) }
    #expect(error?.message.contains("'b'") == true)
  }

  @Test func commandWithoutPositionalsRejectsOne() {
    let error = #expect(throws: UsageError.self) { try Self.parse(["stray"], as: CalcCommand.spec) }
    #expect(error?.message.contains("'stray'") == true)
  }

  @Test func usageFailureHasExitStatus64() {
    let failure = CommandFailure.usage(UsageError("option '--x' is bad"))
    #expect(failure.status == .usage)
    #expect(failure.status.rawValue == 64)
    #expect(failure.lines == ["flow: option '--x' is bad"])
  }

  // MARK: - Help

  static let allSpecs: [CommandSpec] = [spec] + FlowCommand.commands.map(\.spec)

  @Test(arguments: allSpecs.map(\.name))
  func helpListsEveryOption(command: String) throws {
    let spec = try #require(Self.allSpecs.first { $0.name == command })
    let help = spec.help
    #expect(help.hasPrefix("OVERVIEW: \(spec.summary)"))
    #expect(help.contains("\nUSAGE: flow \(spec.name)"))
    #expect(help.contains(spec.summary))
    for positional in spec.positionals { #expect(help.contains(positional)) }
    for option in spec.options {
      if option.isHidden {
        #expect(!help.contains(option.name), "help of \(spec.name) should not list the test seam \(option.name)")
        continue
      }
      #expect(help.contains(option.name), "help of \(spec.name) should list \(option.name)")
      #expect(help.contains(option.help), "help of \(spec.name) should describe \(option.name)")
      if option.arity != .flag { #expect(help.contains("\(option.name) \(option.valueName)")) }
      if let short = option.short { #expect(help.contains("\(short), \(option.name)")) }
    }
    #expect(help.contains("--help"), "help of \(spec.name) should list --help")
  }

  @Test func helpMarksRepeatedOptions() {
    #expect(Self.spec.help.contains("[--set KEY=VALUE]..."))
    #expect(Self.spec.help.contains("[--all]"))
    #expect(!Self.spec.help.contains("[--all]..."))
  }

  static let shortSpec = CommandSpec(
    name: "short", summary: "Options shorter than --help.", positionals: [],
    options: [OptionSpec(name: "--all", arity: .flag, help: "a flag")])

  @Test(arguments: allSpecs.map(\.name) + ["short"])
  func helpAlignsOptionDescriptions(command: String) throws {
    let spec = try #require((Self.allSpecs + [Self.shortSpec]).first { $0.name == command })
    let lines = spec.help.split(separator: "\n").map(String.init)
    var columns: Set<Int> = []
    for (name, text) in spec.shownOptions.map({ (($0.short.map { "\($0), " } ?? "") + $0.name, $0.help) })
      + [("-h, --help", "show help information")]
    {
      // A long option name puts its text on the next line, at the same column.
      let index = try #require(lines.firstIndex { $0.hasPrefix("  \(name)") })
      let line = lines[index].hasSuffix(text) ? lines[index] : lines[index + 1]
      #expect(line.hasSuffix(text))
      columns.insert(line.count - text.count)
    }
    #expect(columns.count == 1, "descriptions start at columns \(columns.sorted())")
  }

  @Test func aHiddenOptionIsParsedButNeitherListedNorSuggested() throws {
    let spec = CommandSpec(
      name: "hidden", summary: "A test seam.", positionals: [],
      options: [
        OptionSpec(name: "--all", arity: .flag, help: "a flag"),
        OptionSpec(name: "--seam", arity: .single, valueName: "DIR", help: "a seam", isHidden: true)
      ])
    #expect(!spec.help.contains("--seam") && spec.help.contains("--all"))
    #expect(try ArgumentParser.parse(["--seam", "x"], as: spec).value("--seam") == "x")
  }

  @Test func flowKnowsItsCommands() {
    #expect(
      FlowCommand.commands.map(\.spec.name) == [
        "run", "validate", "nodes", "render", "layout", "calc", "serve", "export", "cache"
      ])
    for command in FlowCommand.commands { #expect(FlowCommand.usage.contains(command.spec.name)) }
  }
}
