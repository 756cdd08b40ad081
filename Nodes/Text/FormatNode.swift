import FlowRuntime

/// `format`: fills the `{name}` placeholders of its `template` with the text form of its
/// inputs (one `any` input per placeholder, in order of first appearance); `{{` and `}}` are
/// literal braces.
struct FormatNode: NodeKind {
  var name: String { "format" }
  var summary: String { "text = template with each {name} replaced by that input's text" }
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("template", .string, required: true, summary: "text with {name} placeholders; {{ and }} for braces")]
  }

  /// A template split into literal text and placeholders (input indices).
  enum Piece: Sendable { case literal(String), input(Int) }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let (pieces, names) = try Self.parse(parameters.string("template") ?? "")
    return NodeInstance(inputs: names.map { InputPort($0, .any, default: .string("")) }, outputs: [PortDeclaration("text", .string)],
                        evaluator: Evaluator(pieces: pieces))
  }

  /// The pieces of `template` and the placeholder names in order of first appearance.
  static func parse(_ template: String) throws(NodeConfigurationError) -> ([Piece], [String]) {
    var pieces: [Piece] = []
    var names: [String] = []
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
        throw NodeConfigurationError(parameter: "template", reason: "has a '{' that is not closed (write '{{' for a brace)")
      }
      let name = String(template[next..<close])
      guard !name.isEmpty, !name.contains("{") else {
        throw NodeConfigurationError(parameter: "template", reason: "has an empty or nested placeholder '{\(name)}'")
      }
      if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
      if let known = names.firstIndex(of: name) {
        pieces.append(.input(known))
      } else {
        pieces.append(.input(names.count))
        names.append(name)
      }
      index = template.index(after: close)
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    return (pieces, names)
  }

  struct Evaluator: NodeEvaluator {
    let pieces: [Piece]

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      var text = ""
      for piece in pieces {
        switch piece {
        case .literal(let literal): text += literal
        case .input(let index): text += inputs[index].text
        }
      }
      outputs[0] = .string(text)
    }
  }
}
