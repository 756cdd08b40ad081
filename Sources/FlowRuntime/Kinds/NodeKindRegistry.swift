import FlowGraph

/// The node kinds an engine knows, by name. Conforms to `NodeCatalog`, so the graph layer
/// validates documents and mutations against it.
public struct NodeKindRegistry: NodeCatalog, Sendable {
  private var kinds: [String: any NodeKind] = [:]

  /// A registry holding `kinds` (a later kind with the same name replaces an earlier one).
  public init(_ kinds: [any NodeKind] = []) {
    for kind in kinds { register(kind) }
  }

  /// Adds `kind`, replacing any kind of the same name.
  public mutating func register(_ kind: any NodeKind) { kinds[kind.name] = kind }

  /// The kind named `name`.
  public func kind(named name: String) -> (any NodeKind)? { kinds[name] }

  /// Every kind, sorted by name.
  public var allKinds: [any NodeKind] { kinds.values.sorted { $0.name < $1.name } }

  /// Configures the node a spec describes, checking its params.
  ///
  /// Each param must be a declared param of the kind with a value of its type, or be named like
  /// an input port with a value that port accepts.
  public func configure(_ spec: NodeSpec) -> Result<ConfiguredNode, NodeSpecFailure> {
    guard let kind = kinds[spec.kind] else { return .failure(.unknownKind) }
    var problems: [ParameterProblem] = []
    var declared: [String: Value] = [:]
    for parameter in kind.parameters {
      if let json = spec.params[parameter.name], !json.isNull {
        if let value = Value(json: json, as: parameter.type) {
          declared[parameter.name] = value
        } else {
          problems.append(ParameterProblem(parameter: parameter.name,
            reason: "must be \(parameter.type.article) \(parameter.type), found \(json.serialized(options: []))"))
        }
      } else if let value = parameter.defaultValue {
        declared[parameter.name] = value
      } else if parameter.isRequired {
        problems.append(ParameterProblem(parameter: parameter.name, reason: "is required (\(parameter.type))"))
      }
    }
    guard problems.isEmpty else { return .failure(.invalidParameters(problems)) }
    let instance: NodeInstance
    do {
      instance = try kind.instantiate(NodeParameters(declared))
    } catch {
      return .failure(.invalidParameters([ParameterProblem(parameter: error.parameter, reason: error.reason)]))
    }
    var unconnected = instance.inputs.map(\.defaultValue)
    for member in spec.params.members where declared[member.key] == nil {
      if kind.parameters.contains(where: { $0.name == member.key }) { continue }
      guard let port = instance.inputs.firstIndex(where: { $0.name == member.key }) else {
        let inputs = instance.inputs.map(\.name)
        let known = kind.parameters.map(\.name) + inputs
        problems.append(ParameterProblem(parameter: member.key,
          reason: "is not a param of kind '\(kind.name)'" + (known.isEmpty ? " (it takes none)" : " (known: \(known.joined(separator: ", ")))")))
        continue
      }
      let type = instance.inputs[port].type
      if let value = Value(json: member.value, as: type) {
        unconnected[port] = value
      } else {
        problems.append(ParameterProblem(parameter: member.key,
          reason: "sets input '\(member.key)' and must be \(type.article) \(type), found \(member.value.serialized(options: []))"))
      }
    }
    guard problems.isEmpty else { return .failure(.invalidParameters(problems)) }
    return .success(ConfiguredNode(instance: instance, unconnectedInputs: unconnected))
  }

  public func resolve(_ spec: NodeSpec) -> NodeSpecResolution {
    switch configure(spec) {
    case .success(let node): .resolved(node.instance.signature)
    case .failure(.unknownKind): .unknownKind
    case .failure(.invalidParameters(let problems)): .invalidParameters(problems)
    }
  }
}

/// Why a node spec could not be configured.
public enum NodeSpecFailure: Error, Hashable, Sendable {
  case unknownKind
  case invalidParameters([ParameterProblem])
}

extension PortType {
  var article: String { self == .integer || self == .any ? "an" : "a" }
}
