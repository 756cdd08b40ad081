import FlowRuntime

/// `format`: fills the `{name}` placeholders of its `template` with the text form of its
/// inputs (one `any` input per placeholder name, in order of first appearance); `{{` and `}}`
/// are literal braces. A placeholder may carry a number format after a colon (`{x:.2f}`,
/// `{x:,}`, `{x:.1%}`, `{x:.3e}`, `{x:d}`: see ``NumberFormat``); placeholders of one name
/// share its input whatever their formats, and a format given a value that is not a number
/// (or `d` one that is not whole) fails the node naming the placeholder. A template holds at most `maxPlaceholders` placeholders (a validation
/// error beyond), parsing is linear in its length (names are looked up in a dictionary), and
/// the output's size is added up and checked against the string limit before it is built.
struct FormatNode: NodeKind {
  /// The most placeholders (counting repeats) a template may hold (Reference.md, "Files and limits").
  static let maxPlaceholders = 10_000

  var name: String { "format" }
  var summary: String { "text = template with each {name} replaced by that input's text" }
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration(
        "template", .string, required: true,
        summary: "text with {name} placeholders, {name:.2f} ,.1f .1% .3e d for numbers; {{ and }} for braces")
    ]
  }

  /// A template split into literal text and placeholders (input indices, and the number
  /// format with the placeholder's text for messages).
  enum Piece: Sendable { case literal(String), input(Int), formatted(Int, NumberFormat, placeholder: String) }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let (pieces, names) = try Self.parse(parameters.string("template") ?? "")
    return NodeInstance(
      inputs: names.map { InputPort($0, .any, default: .string("")) }, outputs: [PortDeclaration("text", .string)],
      evaluator: Evaluator(pieces: pieces, inputCount: names.count, limits: parameters.environment.limits))
  }

  /// The pieces of `template` and the placeholder names in order of first appearance.
  ///
  /// - Throws: `NodeConfigurationError` for a stray brace, an empty or nested placeholder, an
  ///   unknown number format, or more than `maxPlaceholders` placeholders.
  /// - Complexity: O(template length).
  static func parse(_ template: String) throws(NodeConfigurationError) -> ([Piece], [String]) {
    var pieces: [Piece] = []
    var names: [String] = []
    var inputByName: [String: Int] = [:]
    var placeholderCount = 0
    var literal = ""
    var index = template.startIndex
    while index < template.endIndex {
      let character = template[index]
      let next = template.index(after: index)
      if character == "}" {
        guard next < template.endIndex, template[next] == "}" else {
          throw NodeConfigurationError(parameter: "template", reason: "has a '}' without '{' (write '}}' for a brace)")
        }
        literal.append("}")
        index = template.index(after: next)
        continue
      }
      guard character == "{" else {
        literal.append(character)
        index = next
        continue
      }
      if next < template.endIndex, template[next] == "{" {
        literal.append("{")
        index = template.index(after: next)
        continue
      }
      guard let close = template[next...].firstIndex(of: "}") else {
        throw NodeConfigurationError(
          parameter: "template", reason: "has a '{' that is not closed (write '{{' for a brace)")
      }
      let body = template[next..<close]
      let colon = body.firstIndex(of: ":")
      let name = String(body[..<(colon ?? body.endIndex)])
      guard !name.isEmpty, !body.contains("{") else {
        throw NodeConfigurationError(parameter: "template", reason: "has an empty or nested placeholder '{\(body)}'")
      }
      var format: NumberFormat?
      if let colon, body.index(after: colon) < body.endIndex {
        let spec = body[body.index(after: colon)...]
        guard let known = NumberFormat(spec) else {
          throw NodeConfigurationError(
            parameter: "template",
            reason: "placeholder '{\(body)}' has an unknown number format '\(spec)' (formats: \(NumberFormat.examples))"
          )
        }
        format = known
      }
      placeholderCount += 1
      guard placeholderCount <= maxPlaceholders else {
        throw NodeConfigurationError(
          parameter: "template",
          reason: "has more than \(maxPlaceholders) placeholders (the most a format template may hold)")
      }
      if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
      let input: Int
      if let known = inputByName[name] {
        input = known
      } else {
        input = names.count
        inputByName[name] = input
        names.append(name)
      }
      pieces.append(format.map { .formatted(input, $0, placeholder: "{\(body)}") } ?? .input(input))
      index = template.index(after: close)
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    return (pieces, names)
  }

  struct Evaluator: NodeEvaluator {
    let pieces: [Piece]
    let inputCount: Int
    let limits: RunLimits

    /// Takes each input's text once (and each formatted placeholder's text once), adds up the
    /// output's size and checks it against the string limit, and only then builds the output
    /// (one allocation of the final size).
    ///
    /// - Throws: `NodeError` naming the placeholder whose format does not fit its value.
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      var texts: [String] = []
      texts.reserveCapacity(inputCount)
      for index in 0..<inputCount { texts.append(inputs[index].text) }
      var formatted: [String] = []
      var size = 0
      for piece in pieces {
        switch piece {
        case .literal(let literal): size += literal.utf8.count
        case .input(let index): size += texts[index].utf8.count  // ≤ 10,000 strings in memory: no overflow
        case .formatted(let index, let format, let placeholder):
          do throws(NumberFormat.Problem) {
            formatted.append(try format.text(of: inputs[index]))
          } catch {
            switch error {
            case .notANumber(let type):
              throw NodeError("placeholder '\(placeholder)' formats numbers, but its input is \(type)")
            case .notWhole(let text): throw NodeError("placeholder '\(placeholder)' needs a whole number, got \(text)")
            }
          }
          size += formatted[formatted.count - 1].utf8.count
        }
      }
      try limits.checkStringBytes(size, of: "format output")
      try limits.checkMemory(adding: size, for: "format output")
      var text = ""
      text.reserveCapacity(size)
      var next = 0
      for piece in pieces {
        switch piece {
        case .literal(let literal): text += literal
        case .input(let index): text += texts[index]
        case .formatted: text += formatted[next]; next += 1
        }
      }
      outputs[0] = .string(text)
    }
  }
}

extension FormatNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
