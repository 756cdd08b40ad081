import FlowGraph
import FlowRuntime

/// The argument list of a window function's text: `dep_delay, 2, "none"`. Commas inside double
/// quotes or backticks do not split; a column is a name or a name in backticks; a default is a
/// JSON literal (number, string in double quotes, `true`, `false`, `null`).
enum WindowArguments {
  /// The trimmed arguments of `text` (empty text: none).
  ///
  /// - Returns: the arguments, or the problem (an unclosed quote, an empty argument).
  /// - Complexity: O(|text|).
  static func split(_ text: Substring) -> Result<[String], WindowArgumentProblem> {
    if String(text).trimmingSpaces.isEmpty { return .success([]) }
    var items: [String] = []
    var current = ""
    var quote: Character?
    var escaped = false
    for character in text {
      if let open = quote {
        current.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" && open == "\"" {
          escaped = true
        } else if character == open {
          quote = nil
        }
        continue
      }
      switch character {
      case "\"", "`":
        quote = character
        current.append(character)
      case ",":
        items.append(current.trimmingSpaces)
        current = ""
      default:
        current.append(character)
      }
    }
    if quote != nil {
      return .failure(WindowArgumentProblem(description: "an unclosed \(quote == "`" ? "backtick" : "quote")"))
    }
    items.append(current.trimmingSpaces)
    if items.contains(where: \.isEmpty) { return .failure(WindowArgumentProblem(description: "an empty argument")) }
    return .success(items)
  }

  /// The column an argument names: the text inside backticks, or a plain name (no quotes,
  /// parentheses or spaces); `nil` otherwise.
  static func columnName(_ argument: String) -> String? {
    if argument.count >= 2 && argument.hasPrefix("`") && argument.hasSuffix("`") {
      let inner = String(argument.dropFirst().dropLast())
      return inner.isEmpty || inner.contains("`") ? nil : inner
    }
    let forbidden: Set<Character> = ["\"", "`", "(", ")", " ", ","]
    guard !argument.contains(where: forbidden.contains), argument.first.map({ !$0.isNumber }) ?? false else {
      return nil
    }
    return argument
  }

  /// A default's value: a JSON number, string, bool or null; `nil` if it is none of these.
  static func literal(_ argument: String) -> Value? {
    guard let json = try? JSONValue.parse(argument) else { return nil }
    switch json {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .integer(let value): return .integer(value)
    case .number(let value): return .number(value)
    case .string(let value): return .string(value)
    case .array, .object: return nil
    }
  }
}

/// Why a window function's arguments do not split.
struct WindowArgumentProblem: Error, CustomStringConvertible {
  let description: String
}
