import Foundation
import FlowRuntime

/// `flow calc`'s history file (`~/.flow_calc_history`, one command per line, oldest first).
/// Reading is bounded (the last `byteLimit` bytes, the last `lineLimit` lines); lines with
/// control characters are dropped, so none reach the terminal. Written atomically.
struct CalcHistory {
  let path: String
  var lineLimit = 1_000
  var byteLimit = 1 << 20

  /// The default file: `$HOME/.flow_calc_history`, or `nil` without a home folder.
  static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return (home as NSString).appendingPathComponent(".flow_calc_history")
  }

  /// The saved lines (none if the file is missing or unreadable).
  func load() -> [String] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return [] }
    let start = size > UInt64(byteLimit) ? size - UInt64(byteLimit) : 0
    guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    if start > 0 { lines = Array(lines.dropFirst()) }  // the first line may be cut
    let clean = lines.filter { line in !line.unicodeScalars.contains { $0.properties.generalCategory == .control } }
    return clean.suffix(lineLimit).map(String.init)
  }

  /// Writes `lines` (the last `lineLimit`), replacing the file atomically.
  func save(_ lines: [String]) throws {
    let text = lines.suffix(lineLimit).map { $0 + "\n" }.joined()
    try AtomicFileWriter().write(Array(text.utf8), to: path)
  }
}
