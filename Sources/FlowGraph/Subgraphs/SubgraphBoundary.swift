/// The boundary kinds of a definition: `input` (params `name`, `type` default `number`,
/// `default`, `lazy`; output `value`) and `output` (param `name`; input `value` of type `any`).
public enum SubgraphBoundary {
  public static let inputKind = "input"
  public static let outputKind = "output"

  /// The ports of a boundary node inside a definition, or what is wrong with its params.
  static func resolve(_ spec: NodeSpec) -> NodeSpecResolution {
    var problems: [ParameterProblem] = []
    let isInput = spec.kind == inputKind
    let allowed: Set<String> = isInput ? ["name", "type", "default", "lazy"] : ["name"]
    for member in spec.params.members where !allowed.contains(member.key) {
      let hint = Suggestion.closest(to: member.key, among: Array(allowed)).map { " (did you mean '\($0)'?)" } ?? ""
      problems.append(ParameterProblem(parameter: member.key, reason: "is not a param of kind '\(spec.kind)'\(hint)"))
    }
    if spec.params["name"]?.stringValue.map({ !$0.isEmpty }) != true {
      problems.append(ParameterProblem(parameter: "name", reason: "is required (a non-empty string: the port's name)"))
    }
    guard isInput else {
      return problems.isEmpty
        ? .resolved(NodeSignature(inputs: [PortDeclaration("value", .any)])) : .invalidParameters(problems)
    }
    let type = portType(spec)
    if type == nil {
      problems.append(
        ParameterProblem(
          parameter: "type",
          reason:
            "must be one of \(PortType.allCases.map(\.rawValue).joined(separator: ", ")), found \(spec.params["type"]?.serialized(options: []) ?? "nothing")"
        ))
    }
    if let type, let value = spec.params["default"], !value.isNull, !type.admits(value) {
      problems.append(
        ParameterProblem(
          parameter: "default", reason: "must be \(type.articleName), found \(value.serialized(options: []))"))
    }
    if let lazy = spec.params["lazy"], !lazy.isNull, lazy.boolValue == nil {
      problems.append(
        ParameterProblem(parameter: "lazy", reason: "must be true or false, found \(lazy.serialized(options: []))"))
    }
    guard problems.isEmpty, let type else { return .invalidParameters(problems) }
    return .resolved(NodeSignature(outputs: [PortDeclaration("value", type)]))
  }

  /// The `lazy` param of an input node: `true` declares the instance's port lazy.
  static func isLazy(_ spec: NodeSpec) -> Bool { spec.params["lazy"]?.boolValue == true }

  /// The `type` param of an input node (`number` when absent), `nil` when it names no type.
  static func portType(_ spec: NodeSpec) -> PortType? {
    guard let value = spec.params["type"], !value.isNull else { return .number }
    return value.stringValue.flatMap(PortType.init(rawValue:))
  }
}
