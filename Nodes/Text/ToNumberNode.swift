import FlowRuntime

/// `toNumber`: parses its text as a decimal number (optional sign, digits, optional fraction,
/// optional exponent, surrounding spaces allowed); anything else fails, quoting the text, and so
/// does a number too large for a `Double` (`1e400` is not `inf`: SPEC rules `inf` out).
struct ToNumberNode: StaticNodeKind {
  var name: String { "toNumber" }
  var summary: String { "value = the decimal number the text spells" }
  var inputs: [InputPort] { [InputPort("text", .string, default: .string(""))] }
  var outputs: [PortDeclaration] { [PortDeclaration("value", .number)] }

  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
    let text = try inputs.string(0)
    switch UnsafeDecimalParser.parse(text) {
    case .integer(let value)?:
      // The parser reads "-0" as the integer 0; as a number it keeps its sign.
      outputs[0] = .number(value == 0 && text.utf8.contains(UInt8(ascii: "-")) ? -0.0 : Double(value))
    case .number(let value)? where value.isFinite:
      outputs[0] = .number(value)
    case .number?:
      throw NodeError("number out of range: \"\(Self.shown(text))\"")
    case nil:
      throw NodeError("not a number: \"\(Self.shown(text))\"")
    }
  }

  /// `text` cut to 80 characters for a message.
  static func shown(_ text: String) -> String { text.count > 80 ? String(text.prefix(80)) + "…" : text }
}

extension ToNumberNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
