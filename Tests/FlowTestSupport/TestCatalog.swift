import FlowGraph

/// A small `NodeCatalog` for FlowGraph tests, independent of the runtime's registry.
///
/// | kind | params | inputs | outputs |
/// |---|---|---|---|
/// | `number` | `value` (number) | — | `value` (number) |
/// | `integer` | `value` (whole number) | — | `value` (integer) |
/// | `text` | `value` (string) | — | `value` (string) |
/// | `add` | — | `a`, `b` (number) | `result` (number) |
/// | `upper` | — | `text` (string) | `result` (string) |
/// | `pass` | — | `in` (number) | `out` (number) |
/// | `identity` | — | `value` (any) | `value` (any) |
/// | `display` | — | `value` (any) | — |
/// | `merge` | `inputs` (whole number, default 2) | `in0`, `in1`, … (any) | `out` (any) |
/// | `emit` | `type` (a port type name, required) | — | `out` (that type) |
/// | `take` | `type` (a port type name, required) | `in` (that type) | — |
/// | `group` | — | — | — (a container) |
///
/// A param a kind does not declare, or a value of the wrong JSON type, resolves to
/// `.invalidParameters` with one problem per offending param.
public struct TestCatalog: NodeCatalog {
  public init() {}

  /// Every kind this catalog knows.
  public static let kinds = [
    "number", "integer", "text", "add", "upper", "pass", "identity", "display", "merge",
    "emit", "take", "group"
  ]

  public func resolve(_ spec: NodeSpec) -> NodeSpecResolution {
    switch spec.kind {
    case "number":
      return check(spec, ["value": .number]).map { _ in NodeSignature(outputs: [PortDeclaration("value", .number)]) }
    case "integer":
      return check(spec, ["value": .integer]).map { _ in NodeSignature(outputs: [PortDeclaration("value", .integer)]) }
    case "text":
      return check(spec, ["value": .string]).map { _ in NodeSignature(outputs: [PortDeclaration("value", .string)]) }
    case "add":
      return check(spec, [:]).map { _ in
        NodeSignature(
          inputs: [PortDeclaration("a", .number), PortDeclaration("b", .number)],
          outputs: [PortDeclaration("result", .number)])
      }
    case "upper":
      return check(spec, [:]).map { _ in
        NodeSignature(inputs: [PortDeclaration("text", .string)], outputs: [PortDeclaration("result", .string)])
      }
    case "pass":
      return check(spec, [:]).map { _ in
        NodeSignature(inputs: [PortDeclaration("in", .number)], outputs: [PortDeclaration("out", .number)])
      }
    case "identity":
      return check(spec, [:]).map { _ in
        NodeSignature(inputs: [PortDeclaration("value", .any)], outputs: [PortDeclaration("value", .any)])
      }
    case "display":
      return check(spec, [:]).map { _ in NodeSignature(inputs: [PortDeclaration("value", .any)]) }
    case "merge":
      return check(spec, ["inputs": .integer]).map { _ in
        let count = max(0, spec.params["inputs"]?.numberValue.flatMap { Int(exactly: $0) } ?? 2)
        return NodeSignature(
          inputs: (0..<count).map { PortDeclaration("in\($0)", .any) },
          outputs: [PortDeclaration("out", .any)])
      }
    case "emit":
      return check(spec, ["type": .string], required: ["type"]).map { type in
        NodeSignature(outputs: [PortDeclaration("out", type!)])
      }
    case "take":
      return check(spec, ["type": .string], required: ["type"]).map { type in
        NodeSignature(inputs: [PortDeclaration("in", type!)])
      }
    case "group":
      return check(spec, [:]).map { _ in NodeSignature(isContainer: true) }
    default:
      return .unknownKind
    }
  }

  /// Checks `spec.params` against `declared`; the port type named by a `type` param, if any.
  private func check(_ spec: NodeSpec, _ declared: [String: PortType], required: [String] = [])
    -> Checked
  {
    var problems: [ParameterProblem] = []
    var portType: PortType?
    for member in spec.params.members {
      guard let type = declared[member.key] else {
        let known = declared.keys.sorted()
        problems.append(
          ParameterProblem(
            parameter: member.key,
            reason: "is not a param of kind '\(spec.kind)'"
              + (known.isEmpty ? " (it takes none)" : " (known: \(known.joined(separator: ", ")))")))
        continue
      }
      let value = member.value
      let fits: Bool
      switch type {
      case .number: fits = value.numberValue != nil
      // Whole numbers that fit an `Int` (1e300 does not), up to a port count tests can afford.
      case .integer: fits = value.numberValue.flatMap { Int(exactly: $0) }.map { $0.magnitude <= 100_000 } ?? false
      case .string: fits = value.stringValue != nil
      default: fits = true
      }
      if !fits {
        problems.append(
          ParameterProblem(
            parameter: member.key,
            reason: "must be \(type == .integer ? "an" : "a") \(type), found \(value.serialized(options: []))"))
      } else if member.key == "type" {
        portType = PortType(rawValue: value.stringValue!)
        if portType == nil {
          problems.append(
            ParameterProblem(parameter: "type", reason: "is not a port type, found \(value.serialized(options: []))"))
        }
      }
    }
    for name in required where spec.params[name] == nil {
      problems.append(ParameterProblem(parameter: name, reason: "is required"))
    }
    return problems.isEmpty ? .ok(portType) : .failed(problems)
  }

  private enum Checked {
    case ok(PortType?)
    case failed([ParameterProblem])

    func map(_ signature: (PortType?) -> NodeSignature) -> NodeSpecResolution {
      switch self {
      case .ok(let type): .resolved(signature(type))
      case .failed(let problems): .invalidParameters(problems)
      }
    }
  }
}
