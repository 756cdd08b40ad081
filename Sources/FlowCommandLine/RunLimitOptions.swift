import FlowRuntime

/// The limit options of commands that run a document (`flow run`): `--max-rows N`,
/// `--max-string-bytes N`, `--max-memory SIZE` (Reference.md, "Files and limits"), each raising (or lowering)
/// one of `RunLimits`, and `--threads N`, the threads large tables use. A bad value is a usage
/// error (exit status 64).
enum RunLimitOptions {
  static let specs = [
    OptionSpec(
      name: "--max-rows", arity: .single, valueName: "N",
      help: "fail a node whose table would pass N rows (default 100000000)"),
    OptionSpec(
      name: "--max-string-bytes", arity: .single, valueName: "N",
      help: "fail a node whose string would pass N bytes (default 256M)"),
    OptionSpec(
      name: "--max-memory", arity: .single, valueName: "SIZE",
      help: "fail a node after which the process uses more memory, e.g. 512M, 2G (default 80% of RAM)"),
    OptionSpec(
      name: "--threads", arity: .single, valueName: "N",
      help: "use at most N threads (1-\(maxThreads)) for large tables (default: the active processors)"),
    InlinedNodesOption.spec
  ]

  /// The most `--threads` accepts.
  static let maxThreads = 256

  /// Applies `--max-inlined-nodes N`, the process-wide setting, before the document is loaded.
  ///
  /// - Throws: a usage failure for a bad value.
  static func applyProcessWide(_ arguments: ParsedArguments) throws(CommandFailure) {
    try InlinedNodesOption.apply(arguments)
  }

  /// The threads `--threads N` asks for (`EvaluationEnvironment.workers`; results never depend
  /// on it, only the time they take), or the environment's default (the active processors).
  ///
  /// - Throws: a usage failure for a value that is not a whole number in 1...`maxThreads`.
  static func workers(_ arguments: ParsedArguments) throws(CommandFailure) -> Int {
    guard let text = arguments.value("--threads") else { return TableParallelism.defaultWorkers }
    guard let count = Int(text), (1...maxThreads).contains(count) else {
      throw CommandFailure(.usage, ["flow: --threads expects a whole number from 1 to \(maxThreads), got '\(text)'"])
    }
    return count
  }

  /// The limits the arguments ask for (the defaults where absent).
  ///
  /// - Throws: a usage failure naming the option and the value it could not read.
  static func limits(_ arguments: ParsedArguments) throws(CommandFailure) -> RunLimits {
    var limits = RunLimits()
    if let text = arguments.value("--max-rows") { limits.maxRows = try count(text, option: "--max-rows") }
    if let text = arguments.value("--max-string-bytes") {
      limits.maxStringBytes = try count(text, option: "--max-string-bytes")
    }
    if let text = arguments.value("--max-memory") {
      guard let bytes = size(text), bytes > 0 else {
        throw CommandFailure(
          .usage, ["flow: --max-memory expects a size such as 512M, 2G or a number of bytes, got '\(text)'"])
      }
      limits.maxMemoryBytes = bytes
    }
    return limits
  }

  /// A whole number ≥ 0 (or a size with a unit: `64M`).
  private static func count(_ text: String, option: String) throws(CommandFailure) -> Int {
    guard let value = size(text) else {
      throw CommandFailure(.usage, ["flow: \(option) expects a whole number ≥ 0, got '\(text)'"])
    }
    return value
  }

  /// `text` as a number of bytes: digits with an optional unit `K`, `M`, `G` or `T` (powers of
  /// 1024, any case, optionally followed by `B` or `iB`); `nil` for anything else or a value
  /// past `Int.max`.
  static func size(_ text: String) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let number = Int(digits) else { return nil }
    var unit = text.dropFirst(digits.count).uppercased()
    for suffix in ["IB", "B"] where unit.count > suffix.count && unit.hasSuffix(suffix) {
      unit.removeLast(suffix.count)
      break
    }
    let shifts: [String: Int] = ["": 0, "B": 0, "K": 10, "M": 20, "G": 30, "T": 40]
    guard let shift = shifts[unit] else { return nil }
    let (value, overflow) = number.multipliedReportingOverflow(by: 1 << shift)
    return overflow ? nil : value
  }
}
