import FlowRuntime

/// `toNumber`: parses its text as a decimal number (optional sign, digits, optional fraction,
/// optional exponent, surrounding spaces allowed); anything else fails, quoting the text.
struct ToNumberNode: StaticNodeKind {
  var name: String { "toNumber" }
  var summary: String { "value = the decimal number the text spells" }
  var inputs: [InputPort] { [InputPort("text", .string, default: .string(""))] }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .number)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let text = try inputs.string(0)
    switch UnsafeDecimalParser.parse(text) {
    case .integer(let value)?: outputs[0] = .number(Double(value))
    case .number(let value)?: outputs[0] = .number(value)
    case nil:
      let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
      throw NodeError("not a number: \"\(shown)\"")
    }
  }
}
