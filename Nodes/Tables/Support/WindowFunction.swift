import FlowGraph
import FlowRuntime

/// One entry of `window.columns`: `output: "function(arguments)"`, parsed at load.
///
/// Invariants: `column` is set exactly for the functions that read one (`needsColumn`);
/// `offset` is at least 0 (`lag`, `lead`) and `size` at least 1 (the rolling functions);
/// `fallback` is `.null` unless `lag`/`lead` wrote a default.
package struct WindowFunction: Sendable {
  /// The functions of `window.columns`.
  package enum Function: String, Sendable, CaseIterable {
    case rowNumber, rank, denseRank, lag, lead
    case cumsum, cummin, cummax, cummean, cumcount
    case rollingSum, rollingMean, rollingMin, rollingMax
    case sum, mean, min, max, count, first, last
    case median, std, variance = "var", quantile

    /// Whether the function reads a column (its first argument).
    package var needsColumn: Bool {
      switch self {
      case .rowNumber, .rank, .denseRank, .cumcount, .count: false
      default: true
      }
    }

    /// The arguments it takes, as a usage line for messages.
    package var usage: String {
      switch self {
      case .count: "count() or count(c)"
      case .rowNumber, .rank, .denseRank, .cumcount: "\(rawValue)()"
      case .lag, .lead: "\(rawValue)(c[, n[, default]])"
      case .rollingSum, .rollingMean, .rollingMin, .rollingMax: "\(rawValue)(c, n)"
      case .quantile: "quantile(c, q)"
      default: "\(rawValue)(c)"
      }
    }
  }

  /// The column it adds.
  package var output: String
  package var function: Function
  /// The column it reads (`nil` for the functions without one).
  package var column: String?
  /// `lag`/`lead`: rows back or ahead (default 1).
  package var offset = 1
  /// The rolling functions: rows in the window, this one included.
  package var size = 1
  /// `lag`/`lead`: the value where no row is that far away (default null).
  package var fallback: Value = .null
  /// `quantile`: which quantile, from 0 to 1.
  package var q = 0.5

  /// The largest `n` of `lag`, `lead` and the rolling functions (one more than any row count).
  package static let maxCount: Int64 = 1 << 40

  /// Parses `text` (`lag(dep_delay, 2)`; a column may be written in backticks).
  ///
  /// - Parameter bindsLater: the entry holds `@name`s, read as `null` while the node is checked
  ///   (`RowFormulaBinding`): a `null` constant argument (`lag(c, @n)`'s offset, a default,
  ///   `quantile`'s `q`) is then left to the value written in when the node runs.
  /// - Returns: the function, or a configuration error of param `columns` naming the column
  ///   `output`, the text and what is wrong (an unknown function lists the closest name).
  package static func parse(output: String, _ text: String, bindsLater: Bool = false) -> Result<
    WindowFunction, NodeConfigurationError
  > {
    func problem(_ reason: String) -> Result<WindowFunction, NodeConfigurationError> {
      .failure(NodeConfigurationError(parameter: "columns", reason: "column '\(output)': \(reason)"))
    }
    let trimmed = text.trimmingSpaces
    guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
      return problem("\"\(text)\" is not a window function call such as \"lag(c)\" or \"rank()\"")
    }
    let name = String(trimmed[..<open]).trimmingSpaces
    guard let function = Function(rawValue: name) else {
      let names = Function.allCases.map(\.rawValue)
      let hint =
        Suggestion.closest(to: name, among: names).map { " (did you mean '\($0)'?)" }
        ?? " (known: \(names.joined(separator: ", ")))"
      return problem("unknown window function '\(name)'\(hint)")
    }
    let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
    var arguments: [String]
    switch WindowArguments.split(inner) {
    case .success(let items): arguments = items
    case .failure(let reason): return problem("\(reason) in \"\(text)\"")
    }
    var entry = WindowFunction(output: output, function: function)
    let allowed: ClosedRange<Int>
    switch function {
    case .rowNumber, .rank, .denseRank, .cumcount: allowed = 0...0
    case .count: allowed = 0...1
    case .lag, .lead: allowed = 1...3
    case .rollingSum, .rollingMean, .rollingMin, .rollingMax, .quantile: allowed = 2...2
    default: allowed = 1...1
    }
    guard allowed.contains(arguments.count) else {
      let takes =
        allowed.lowerBound == allowed.upperBound
        ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
      return problem(
        "\(function.rawValue) takes \(takes) argument\(allowed.upperBound == 1 ? "" : "s"), "
          + "found \(arguments.count) in \"\(text)\" (\(function.usage))")
    }
    if function.needsColumn || (function == .count && arguments.count == 1) {
      guard let column = WindowArguments.columnName(arguments[0]) else {
        return problem("the first argument of \(function.rawValue) must be a column name, found '\(arguments[0])'")
      }
      entry.column = column
    }
    if bindsLater {
      // Each `@name` is a `null` placeholder until the node runs: check the rest as written.
      arguments = arguments.enumerated().map {
        $0.offset > 0 && $0.element.trimmingSpaces == "null"
          ? ($0.offset == 1 ? (function == .quantile ? "0.5" : "1") : "null") : $0.element
      }
    }
    if function == .quantile {
      guard let q = Double(arguments[1]), q >= 0, q <= 1 else {
        return problem("the second argument of quantile must be a number from 0 to 1, found '\(arguments[1])'")
      }
      entry.q = q
    } else if arguments.count >= 2 {  // lag, lead and the rolling functions
      let least: Int64 = function == .lag || function == .lead ? 0 : 1
      // A whole number written as a double (`2.0`: an `@n` set from a number input) counts.
      guard let count = Int64(arguments[1]) ?? Double(arguments[1]).flatMap({ Int64(exactly: $0) }), count >= least,
        count <= maxCount
      else {
        return problem(
          "the second argument of \(function.rawValue) must be an integer from \(least) to \(maxCount), "
            + "found '\(arguments[1])'")
      }
      if function == .lag || function == .lead { entry.offset = Int(count) } else { entry.size = Int(count) }
    }
    if arguments.count == 3 {
      guard let value = WindowArguments.literal(arguments[2]) else {
        return problem(
          "the default of \(function.rawValue) must be a number, a string in double quotes, true, false "
            + "or null, found '\(arguments[2])'")
      }
      entry.fallback = value
    }
    return .success(entry)
  }
}
