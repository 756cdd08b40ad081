import Foundation
import FlowRuntime

/// `flow cache stats|clear DIR`: what a run cache (`flow run --cache DIR`) holds, or empty it.
enum CacheCommand {
  static let spec = CommandSpec(
    name: "cache", summary: "Show what a run cache holds (stats) or empty it (clear).",
    positionals: ["ACTION", "DIR"],
    options: [
      OptionSpec(
        name: "--format", arity: .single, valueName: "text|json", help: "output format (default text)",
        choices: ["text", "json"])
    ],
    positionalHelp: ["stats or clear", "the cache folder (what flow run --cache was given)"])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    let action = arguments.positionals[0], directory = arguments.positionals[1]
    guard action == "stats" || action == "clear" else {
      throw CommandFailure(.usage, ["flow: cache: the action is stats or clear, not '\(action)'"])
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
      throw CommandFailure(.usage, ["flow: cache: there is no cache folder '\(directory)'"])
    }
    let absolute = (FileAccessPolicy.absolutePath(directory) as NSString).standardizingPath
    let cache: RunCache
    do {
      cache = try RunCache(
        directory: absolute, writableRoots: [(absolute as NSString).deletingLastPathComponent],
        productVersion: FlowCommand.version, warn: context.warningWriter)
    } catch {
      throw CommandFailure(.usage, ["flow: cache: \(error.message)"])
    }
    let json = arguments.value("--format") == "json"
    if action == "clear" {
      let removed = cache.clear()
      output =
        json
        ? "{\"removed\": \(removed)}\n"
        : "removed \(removed) entr\(removed == 1 ? "y" : "ies") from \(cache.directory)\n"
      return .success
    }
    let statistics = cache.statistics()
    output =
      json
      ? "{\"entries\": \(statistics.entries), \"bytes\": \(statistics.bytes)}\n"
      : "\(cache.directory): \(statistics.entries) entr\(statistics.entries == 1 ? "y" : "ies"), \(statistics.bytes) bytes\n"
    return .success
  }
}
