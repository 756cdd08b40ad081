import FlowGraph
import FlowRuntime

/// `@name`s bound outside a running node: what `flow export --sql` uses to write a node's scalar
/// inputs into its row formulas as literals, exactly as the node does when it runs
/// (`RowFormulaInputs`, `RowFormulaBinding`).
extension RowFormula {
  /// The distinct `@name`s of the row formulas in `params[formulas]` (a string, a list or a
  /// record of them), in order of first appearance.
  package static func inputNames(in params: JSONObject, formulas: [String]) -> [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for name in formulas {
      for text in strings(params[name]) where text.utf8.contains(UInt8(ascii: "@")) {
        for input in RowFormulaInputs(text).names where seen.insert(input).inserted { names.append(input) }
      }
    }
    return names
  }

  /// `params` with every `@name` of the row formulas in `params[formulas]` written as the
  /// row-formula literal of `value(name)` (a string literal escapes `\` and `"`).
  ///
  /// - Throws: `NodeError` naming the input when its value is null or not a scalar.
  /// - Complexity: linear in the formulas' length.
  package static func binding(
    _ params: JSONObject, formulas: [String],
    _ value: (String) -> Value
  ) throws -> JSONObject {
    var literals: [String: String] = [:]
    func bound(_ text: String) throws -> String {
      guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
      let inputs = RowFormulaInputs(text)
      var written: [String] = []
      for name in inputs.names {
        if let literal = literals[name] {
          written.append(literal)
        } else {
          let literal = try RowFormulaInputs.literal(value(name), input: name)
          literals[name] = literal
          written.append(literal)
        }
      }
      return inputs.text(with: written)
    }
    var result = params
    for name in formulas {
      switch params[name] {
      case .string(let text)?: result[name] = .string(try bound(text))
      case .array(let items)?:
        result[name] = .array(
          try items.map { item throws -> JSONValue in
            guard case .string(let text) = item else { return item }
            return .string(try bound(text))
          })
      case .object(let object)?:
        result[name] = .object(
          JSONObject(
            try object.members.map { member throws -> JSONMember in
              guard case .string(let text) = member.value else { return member }
              return JSONMember(key: member.key, value: .string(try bound(text)))
            }))
      default: break
      }
    }
    return result
  }

  private static func strings(_ json: JSONValue?) -> [String] {
    switch json {
    case .string(let text)?: [text]
    case .array(let items)?: items.compactMap(\.stringValue)
    case .object(let object)?: object.members.compactMap(\.value.stringValue)
    default: []
    }
  }
}
