/// A catalog that knows a document's subgraph kinds besides the kinds of `base`.
///
/// An instance (a node whose kind is a definition's name) resolves to the definition's ports;
/// its params must each name an input and hold a value of its type. `input` and `output`
/// resolve only inside a definition (`insideDefinition`), and the kinds the expansion makes
/// (`SubgraphExpander.inputKind` …) never do: a document cannot name them.
public struct SubgraphCatalog: NodeCatalog {
  public let base: any NodeCatalog
  public let library: SubgraphLibrary
  public let insideDefinition: Bool

  public init(base: any NodeCatalog, library: SubgraphLibrary, insideDefinition: Bool = false) {
    self.base = base
    self.library = library
    self.insideDefinition = insideDefinition
  }

  public var subgraphSources: [SubgraphSource] { base.subgraphSources }

  public func resolve(_ spec: NodeSpec) -> NodeSpecResolution {
    if let resolution = ownResolution(spec) { return resolution }
    return base.resolve(spec)
  }

  public func resolveWithPayload(_ spec: NodeSpec) -> (resolution: NodeSpecResolution, payload: (any Sendable)?) {
    if let resolution = ownResolution(spec) { return (resolution, nil) }
    return base.resolveWithPayload(spec)
  }

  /// What this catalog says of `spec` itself; `nil` to ask `base`.
  private func ownResolution(_ spec: NodeSpec) -> NodeSpecResolution? {
    if spec.kind.hasPrefix(SubgraphExpander.reservedPrefix) { return .unknownKind }
    if spec.kind == SubgraphBoundary.inputKind || spec.kind == SubgraphBoundary.outputKind {
      guard insideDefinition else {
        return .invalidParameters([
          ParameterProblem(
            parameter: "kind",
            reason: "'\(spec.kind)' is valid only inside a subgraph definition (flowRuntime.subgraphs)")
        ])
      }
      return SubgraphBoundary.resolve(spec)
    }
    guard let subgraph = library[spec.kind] else { return nil }
    var problems: [ParameterProblem] = []
    for member in spec.params.members {
      guard let port = subgraph.input(named: member.key) else {
        let names = subgraph.inputs.map(\.name)
        let hint =
          Suggestion.closest(to: member.key, among: names).map { " (did you mean '\($0)'?)" }
          ?? (names.isEmpty ? " (it has no inputs)" : " (inputs: \(names.joined(separator: ", ")))")
        problems.append(
          ParameterProblem(parameter: member.key, reason: "is not an input of subgraph \(subgraph.place)\(hint)"))
        continue
      }
      if !member.value.isNull, !port.type.admits(member.value) {
        problems.append(
          ParameterProblem(
            parameter: member.key,
            reason:
              "sets input '\(port.name)' and must be \(port.type.articleName), found \(member.value.serialized(options: []))"
          ))
      }
    }
    return problems.isEmpty ? .resolved(subgraph.signature) : .invalidParameters(problems)
  }
}

extension PortType {
  /// Whether a JSON value written in a document can be a value of this type.
  func admits(_ value: JSONValue) -> Bool {
    switch self {
    case .any: true
    case .number: value.numberValue != nil
    case .integer: value.integerValue != nil && { if case .number(let x) = value { x.rounded() == x } else { true } }()
    case .bool: value.boolValue != nil
    case .string: value.stringValue != nil
    case .list: value.arrayValue != nil
    case .record: value.objectValue != nil
    case .table: value.arrayValue != nil
    }
  }

  /// `a number`, `an integer`.
  var articleName: String { (self == .integer || self == .any ? "an " : "a ") + rawValue }
}
