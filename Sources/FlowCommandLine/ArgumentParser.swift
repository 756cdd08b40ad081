import FlowGraph
/// A small table-driven parser for `flow`'s arguments.
///
/// A command declares its options in a table (`OptionSpec`); parsing walks the arguments once,
/// accepting `--name value`, `--name=value`, flags, repeated options, positionals, and `--`
/// to end options. Anything else is a `UsageError` (exit status 64).
struct OptionSpec: Sendable {
  enum Arity: Sendable { case flag, single, repeated }
  var name: String
  var arity: Arity
  var valueName: String = ""
  var help: String
  /// Allowed values, if the option takes one of a fixed set.
  var choices: [String] = []
  /// A one-letter alias (`-o` for `--output`).
  var short: String? = nil
  /// Left out of the help and of suggestions: a test seam (`--test-write-barrier`).
  var isHidden = false
}

/// The syntax of one subcommand.
struct CommandSpec: Sendable {
  var name: String
  var summary: String
  var positionals: [String]
  var options: [OptionSpec]
  /// One line of help per positional, in order.
  var positionalHelp: [String] = []
  /// Positionals that may follow `positionals`, or be left out.
  var optionalPositionals: [String] = []
  /// Paragraphs printed after the options.
  var discussion: String = ""
}

/// The arguments of one invocation, checked against a `CommandSpec`.
struct ParsedArguments: Equatable {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []
  var wantsHelp = false

  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }
  func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Bad command-line usage: exit status 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

enum ArgumentParser {
  /// Parses `arguments` (without the command name) against `spec`.
  ///
  /// - Throws: `UsageError` for an unknown option, a missing or invalid value, a repeated
  ///   single option, or the wrong number of positionals.
  static func parse(_ arguments: [String], as spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" { optionsEnded = true; continue }
      if argument == "--help" || argument == "-h" { parsed.wantsHelp = true; continue }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = spec.options.first(where: { $0.name == name || ($0.short != nil && $0.short == name) }) else {
        let hint = Suggestion.hint(for: name, among: spec.options.filter { !$0.isHidden }.map(\.name) + ["--help"])
        throw UsageError("unknown option '\(name)' for 'flow \(spec.name)'\(hint) (see 'flow \(spec.name) --help')")
      }
      name = option.name
      if option.arity == .flag {
        if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else { throw UsageError("option '\(name)' needs a value (\(option.valueName))") }
        value = arguments[index]
        index += 1
      }
      if !option.choices.isEmpty && !option.choices.contains(value) {
        throw UsageError("option '\(name)' must be one of \(option.choices.joined(separator: ", ")), not '\(value)'")
      }
      if option.arity == .single && parsed.values[name] != nil {
        throw UsageError("option '\(name)' is given more than once")
      }
      parsed.values[name, default: []].append(value)
    }
    if !parsed.wantsHelp {
      if parsed.positionals.count < spec.positionals.count {
        throw UsageError(
          "'flow \(spec.name)' needs \(spec.positionals.joined(separator: " ")) (see 'flow \(spec.name) --help')")
      }
      if parsed.positionals.count > spec.positionals.count + spec.optionalPositionals.count {
        throw UsageError("unexpected argument '\(parsed.positionals[spec.positionals.count])' for 'flow \(spec.name)'")
      }
    }
    return parsed
  }
}
