/// Help text in swift-argument-parser's layout: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`.
extension CommandSpec {
  /// The column where help texts start.
  static let helpColumn = 26

  /// `USAGE: flow run FILE [--set NODE.PARAM=JSON]... [--all]`
  var usageLine: String {
    "USAGE: flow \(name)" + positionals.map { " \($0)" }.joined() + optionalPositionals.map { " [\($0)]" }.joined()
      + shownOptions.map { option in
        let value = option.arity == .flag ? "" : " \(option.valueName)"
        let flag = option.short ?? option.name
        return option.arity == .repeated ? " [\(flag)\(value)]..." : " [\(flag)\(value)]"
      }.joined()
  }

  /// The options the help lists (not the hidden test seams).
  var shownOptions: [OptionSpec] { options.filter { !$0.isHidden } }

  /// `--help` text for the command.
  var help: String {
    var lines = ["OVERVIEW: \(summary)", "", usageLine]
    if !positionals.isEmpty {
      lines += ["", "ARGUMENTS:"]
      for (index, positional) in positionals.enumerated() {
        lines.append(Self.row(positional, index < positionalHelp.count ? positionalHelp[index] : ""))
      }
    }
    lines += ["", "OPTIONS:"]
    for option in shownOptions {
      var left = option.short.map { "\($0), " } ?? ""
      left += option.name + (option.arity == .flag ? "" : " \(option.valueName)")
      lines.append(Self.row(left, option.help))
    }
    lines.append(Self.row("-h, --help", "show help information"))
    if !discussion.isEmpty { lines += ["", discussion] }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `  left    help`, the help on the next line when `left` is too long.
  static func row(_ left: String, _ help: String) -> String {
    let indented = "  " + left
    if help.isEmpty { return indented }
    if indented.count + 1 >= helpColumn {
      return indented + "\n" + String(repeating: " ", count: helpColumn) + help
    }
    return indented.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + help
  }
}
