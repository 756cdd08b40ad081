import FlowGraph

/// The node kinds an engine knows, by name. Conforms to `NodeCatalog`, so the graph layer
/// validates documents and mutations against it.
public struct NodeKindRegistry: NodeCatalog, Sendable {
  /// A kind with what is computed once per kind rather than once per node. A class, so that a
  /// lookup hands out a reference instead of copying a dozen fields per configured node.
  final class Entry: Sendable {
    let kind: any NodeKind
    let parameters: [ParameterDeclaration]
    /// The names of `parameters`, for checking a spec's params without a search per param.
    let parameterNames: Set<String>
    /// For `StaticNodeKind`s: the one instance every node of the kind shares.
    let sharedInstance: NodeInstance?
    let sharedSignature: NodeSignature?
    let sharedInputNames: [String]?
    let sharedOutputNames: [String]?
    let sharedInputTypes: [PortType]?
    /// For `StaticNodeKind`s: each input's port by name (the first of a repeated name), for the
    /// params that set inputs — built once per kind, not once per configured node.
    let sharedInputIndex: [String: Int]?
    /// For `StaticNodeKind`s: the configuration every node of the kind without params shares,
    /// and the same as a payload of this registry (`resolveWithPayload`).
    let sharedConfigured: ConfiguredNode?
    let sharedPayload: ConfiguredPayload?

    init(_ kind: any NodeKind) {
      self.kind = kind
      parameters = kind.parameters
      parameterNames = Set(parameters.map(\.name))
      if let fixed = kind.asStaticKind, parameters.isEmpty,
        let instance = try? fixed.instantiate(NodeParameters([:]))
      {
        sharedInstance = instance
        sharedSignature = instance.signature
        let inputNames = instance.inputs.map(\.name)
        let outputNames = instance.outputs.map(\.name)
        let inputTypes = instance.inputs.map(\.type)
        sharedInputNames = inputNames
        sharedOutputNames = outputNames
        sharedInputTypes = inputTypes
        sharedInputIndex = Self.inputIndex(of: instance)
        sharedConfigured = ConfiguredNode(
          instance: instance, unconnectedInputs: instance.inputs.map(\.defaultValue),
          signature: instance.signature, inputNames: inputNames,
          outputNames: outputNames, inputTypes: inputTypes,
          sharedKey: kind.name)
      } else {
        sharedInstance = nil
        sharedSignature = nil
        sharedInputNames = nil
        sharedOutputNames = nil
        sharedInputTypes = nil
        sharedInputIndex = nil
        sharedConfigured = nil
      }
      sharedPayload = nil
    }

    /// Each input's port by name, the first of a repeated name.
    static func inputIndex(of instance: NodeInstance) -> [String: Int] {
      Dictionary(instance.inputs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `entry` with its shared configuration as a payload of the registry `identity`.
    init(_ entry: Entry, identity: RegistryIdentity) {
      kind = entry.kind
      parameters = entry.parameters
      parameterNames = entry.parameterNames
      sharedInstance = entry.sharedInstance
      sharedSignature = entry.sharedSignature
      sharedInputNames = entry.sharedInputNames
      sharedOutputNames = entry.sharedOutputNames
      sharedInputTypes = entry.sharedInputTypes
      sharedInputIndex = entry.sharedInputIndex
      sharedConfigured = entry.sharedConfigured
      sharedPayload = entry.sharedConfigured.map { ConfiguredPayload(registry: identity, node: $0, shareable: true) }
    }
  }

  private var kinds: [String: Entry] = [:]
  /// Subgraph definitions registered as kinds (`register(subgraphsFrom:)`).
  var registeredSubgraphs: [SubgraphSource] = []
  /// Replaced whenever the registry changes, so that payloads of another registry (or of this
  /// one before a change) are never taken for its own.
  private(set) var identity = RegistryIdentity()

  /// Where nodes configured by this registry run (document folder, file-access policy,
  /// progress counters); kinds receive it in `NodeParameters.environment`. A host sets it
  /// before validating or evaluating a document (`flow run` sets it from the document's path
  /// and `--allow-read`/`--allow-write`).
  public var environment = EvaluationEnvironment() {
    didSet { renewIdentity() }
  }

  /// A registry holding `kinds` (a later kind with the same name replaces an earlier one).
  public init(_ kinds: [any NodeKind] = []) {
    // The kinds the subgraph expansion makes (never named by documents, not listed).
    for kind in [SubgraphInputKind(), SubgraphOutputKind(), SubgraphInstanceKind()] as [any NodeKind] {
      self.kinds[kind.name] = Entry(kind)
    }
    for kind in kinds { self.kinds[kind.name] = Entry(kind) }
    renewIdentity()
  }

  /// Adds `kind`, replacing any kind of the same name.
  public mutating func register(_ kind: any NodeKind) {
    kinds[kind.name] = Entry(kind)
    renewIdentity()
  }

  /// A new identity, and the shared payloads made anew under it.
  private mutating func renewIdentity() {
    let identity = RegistryIdentity()
    self.identity = identity
    kinds = kinds.mapValues { Entry($0, identity: identity) }
  }

  /// The kind named `name`.
  public func kind(named name: String) -> (any NodeKind)? { kinds[name]?.kind }

  /// Every kind, sorted by name.
  public var allKinds: [any NodeKind] {
    kinds.values.map(\.kind).filter { !$0.name.hasPrefix(SubgraphExpander.reservedPrefix) }.sorted { $0.name < $1.name }
  }

  /// Configures the node a spec describes, checking its params.
  ///
  /// Each param must be a declared param of the kind with a value of its type, or be named like
  /// an input port with a value that port accepts.
  public func configure(_ spec: NodeSpec) -> Result<ConfiguredNode, NodeSpecFailure> {
    guard let entry = kinds[spec.kind] else { return .failure(.unknownKind) }
    return configure(spec, entry)
  }

  /// `configure(_:)` with the spec's kind already looked up.
  private func configure(_ spec: NodeSpec, _ entry: Entry) -> Result<ConfiguredNode, NodeSpecFailure> {
    if let shared = entry.sharedConfigured, spec.params.isEmpty { return .success(shared) }
    let kind = entry.kind
    var problems: [ParameterProblem] = []
    var declared: [String: Value] = [:]
    for parameter in entry.parameters {
      if let json = spec.params[parameter.name], !json.isNull {
        if let value = Value(json: json, as: parameter.type) {
          declared[parameter.name] = value
        } else {
          problems.append(
            ParameterProblem(
              parameter: parameter.name,
              reason: "must be \(parameter.type.article) \(parameter.type), found \(json.serialized(options: []))"))
        }
      } else if let value = parameter.defaultValue {
        declared[parameter.name] = value
      } else if parameter.isRequired {
        // A misspelt required param (`no` for `on`) is reported as the typo it is.
        if let typo = spec.params.members.first(where: {
          !entry.parameterNames.contains($0.key) && Suggestion.closest(to: $0.key, among: [parameter.name]) != nil
        }) {
          problems.append(
            ParameterProblem(
              parameter: typo.key,
              reason: "is not a param of kind '\(entry.kind.name)' (did you mean '\(parameter.name)'?)"))
        } else {
          problems.append(ParameterProblem(parameter: parameter.name, reason: "is required (\(parameter.type))"))
        }
      }
    }
    guard problems.isEmpty else { return .failure(.invalidParameters(problems)) }
    var instance: NodeInstance
    if let shared = entry.sharedInstance {
      instance = shared
    } else {
      do {
        instance = try kind.instantiate(NodeParameters(declared, raw: spec.params, environment: environment))
      } catch {
        return .failure(
          .invalidParameters(error.all.map { ParameterProblem(parameter: $0.parameter, reason: $0.reason) }))
      }
    }
    var unconnected = instance.inputs.map(\.defaultValue)
    // Params that set inputs are matched through a name index built once (an `expression` may
    // have tens of thousands of variables): linear in params + inputs, not their product.
    var inputIndex: [String: Int]?
    var knownNames: String?
    for member in spec.params.members where !entry.parameterNames.contains(member.key) {  // `declared` holds only those
      if member.key == "policy", instance.live != nil {
        if let name = member.value.stringValue, let policy = LivePolicy(rawValue: name) {
          instance.live?.policy = policy
        } else {
          problems.append(
            ParameterProblem(
              parameter: "policy",
              reason: "must be \"persistent\" or \"onDemand\", found \(member.value.serialized(options: []))"))
        }
        continue
      }
      if inputIndex == nil { inputIndex = entry.sharedInputIndex ?? Entry.inputIndex(of: instance) }
      guard let port = inputIndex?[member.key] else {
        problems.append(
          ParameterProblem(
            parameter: member.key,
            reason: "is not a param of kind '\(kind.name)'"
              + unknownParamHint(member.key, entry: entry, instance: instance, known: &knownNames)))
        continue
      }
      let type = instance.inputs[port].type
      if let value = Value(json: member.value, as: type) {
        unconnected[port] = value
      } else {
        problems.append(
          ParameterProblem(
            parameter: member.key,
            reason:
              "sets input '\(member.key)' and must be \(type.article) \(type), found \(member.value.serialized(options: []))"
          ))
      }
    }
    guard problems.isEmpty else { return .failure(.invalidParameters(problems)) }
    return .success(
      ConfiguredNode(
        instance: instance, unconnectedInputs: unconnected,
        signature: entry.sharedSignature ?? Self.signature(of: instance, entry: entry),
        inputNames: entry.sharedInputNames, outputNames: entry.sharedOutputNames,
        inputTypes: entry.sharedInputTypes))
  }

  /// ` (did you mean 'on'?)` for a likely typo of a param, else ` (known: a, b, …)`.
  ///
  /// Inputs settable by params are candidates only when the node has at most
  /// `suggestedInputLimit` of them, so a flood of unknown params on a formula node with
  /// thousands of variables stays linear.
  private func unknownParamHint(_ name: String, entry: Entry, instance: NodeInstance, known: inout String?) -> String {
    var candidates = entry.parameters.map(\.name)
    if instance.inputs.count <= Self.suggestedInputLimit { candidates += instance.inputs.map(\.name) }
    if let close = Suggestion.closest(to: name, among: candidates) { return " (did you mean '\(close)'?)" }
    if known == nil { known = Self.knownNames(entry.parameters.map(\.name) + instance.inputs.map(\.name)) }
    return known!
  }

  /// The most inputs whose names an unknown param is compared with for a did-you-mean.
  static let suggestedInputLimit = 64

  /// ` (known: a, b, …)` listing at most 20 names (built once per node, not once per bad param).
  static func knownNames(_ names: [String]) -> String {
    if names.isEmpty { return " (it takes none)" }
    let shown = names.prefix(20).joined(separator: ", ")
    return " (known: \(shown)\(names.count > 20 ? ", … \(names.count - 20) more" : ""))"
  }

  /// Configures a node that validation (or the store) already accepted; a failure here is an
  /// internal inconsistency.
  func configureValidated(_ node: FlowNode) -> ConfiguredNode {
    let outcome = configure(node.data)
    switch outcome {
    case .success(let configured): return configured
    case .failure(let failure):
      preconditionFailure("Internal inconsistency: node '\(node.id)' was accepted but does not configure: \(failure)")
    }
  }

  /// Configures the spec (`configure(_:)`) and returns the configuration as the payload, which
  /// only this registry, unchanged, takes back (`configured(fromPayload:)`).
  public func resolveWithPayload(_ spec: NodeSpec) -> (resolution: NodeSpecResolution, payload: (any Sendable)?) {
    guard let entry = kinds[spec.kind] else { return (.unknownKind, nil) }
    if let payload = entry.sharedPayload, spec.params.isEmpty { return (.resolved(payload.node.signature), payload) }
    switch configure(spec, entry) {  // consumed, not copied
    case .success(let node):
      return (
        .resolved(node.signature),
        ConfiguredPayload(registry: identity, node: node, shareable: entry.kind.sharesConfiguration)
      )
    case .failure(let failure): return (Self.resolution(of: .failure(failure)), nil)
    }
  }

  /// The configuration a payload of `resolveWithPayload` holds, if this registry made it (and
  /// did not change since); `nil` otherwise.
  func configured(fromPayload payload: (any Sendable)?) -> ConfiguredNode? {
    guard let payload = payload as? ConfiguredPayload, payload.registry === identity else { return nil }
    return payload.node
  }

  /// `configured(fromPayload:)` for a payload the store handed to several nodes (one inner
  /// node of a definition, resolved once for all instances): `nil` unless the kind
  /// `sharesConfiguration`, so that other kinds get a configuration of their own.
  func configured(fromSharedPayload payload: (any Sendable)?) -> ConfiguredNode? {
    guard let payload = payload as? ConfiguredPayload, payload.registry === identity, payload.shareable else {
      return nil
    }
    return payload.node
  }

  public func resolve(_ spec: NodeSpec) -> NodeSpecResolution {
    if let entry = kinds[spec.kind], let signature = entry.sharedSignature, spec.params.isEmpty {
      return .resolved(signature)
    }
    return Self.resolution(of: configure(spec))
  }

  /// The graph layer's view of a configuration outcome.
  static func resolution(of result: Result<ConfiguredNode, NodeSpecFailure>) -> NodeSpecResolution {
    switch result {
    case .success(let node): .resolved(node.signature)
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

/// A registry's identity (see `NodeKindRegistry.identity`): compared by reference.
final class RegistryIdentity: Sendable {}

/// The payload `NodeKindRegistry.resolveWithPayload` returns: a configured node, tagged with
/// the registry that configured it.
final class ConfiguredPayload: Sendable {
  let registry: RegistryIdentity
  let node: ConfiguredNode
  /// Whether the kind `sharesConfiguration` (several nodes may take this one payload).
  let shareable: Bool

  init(registry: RegistryIdentity, node: ConfiguredNode, shareable: Bool) {
    self.registry = registry
    self.node = node
    self.shareable = shareable
  }
}

extension NodeKindRegistry {
  /// This registry with the limits of `options` in its environment, where they set any.
  package func applying(_ options: EngineOptions) -> NodeKindRegistry {
    guard let limits = options.limits else { return self }
    var registry = self
    registry.environment.limits = limits
    return registry
  }
}
