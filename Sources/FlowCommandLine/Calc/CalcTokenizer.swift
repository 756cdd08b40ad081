/// Splits a `flow calc` line into words at spaces outside JSON strings, brackets and braces,
/// so `set f formula="a + b"` and `set l value=[1, 2]` are two words each after `set`.
enum CalcTokenizer {
  /// The words of `line`; an unterminated string or bracket runs to the end of the line.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var depth = 0
    var inString = false
    var escaped = false
    for character in line {
      if inString {
        current.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      switch character {
      case "\"": inString = true; current.append(character)
      case "[", "{": depth += 1; current.append(character)
      case "]", "}": depth = max(0, depth - 1); current.append(character)
      case " ", "\t":
        if depth > 0 { current.append(character) } else if !current.isEmpty { words.append(current); current = "" }
      default: current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
