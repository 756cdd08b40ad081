/// One port of a subgraph kind: an `input` or `output` node of its definition.
public struct SubgraphPort: Sendable, Hashable {
  /// The port's name (the boundary node's param `name`).
  public var name: String
  public var type: PortType
  /// The id of the boundary node inside the definition.
  public var nodeID: String
  /// For an input: the value it takes while the instance neither connects nor sets it.
  public var defaultValue: JSONValue?
  /// For an input: declared `lazy: true`. Demand inside an instance follows what its inner
  /// nodes ask for either way (the instance is inlined); the flag puts the port in the
  /// instance's signature as lazy, as a kind's lazy input is listed.
  public var isLazy: Bool

  /// An input without `default` must be connected or set on every instance.
  public var isRequired: Bool { defaultValue == nil }

  public init(name: String, type: PortType, nodeID: String, defaultValue: JSONValue? = nil, isLazy: Bool = false) {
    self.name = name
    self.type = type
    self.nodeID = nodeID
    self.defaultValue = defaultValue
    self.isLazy = isLazy
  }
}

/// A set of definitions from one place: the document itself or one imported file.
public struct SubgraphSource: Sendable, Hashable {
  /// Where the definitions were written, for messages: `"this document"` or a file's path.
  public var origin: String
  public var definitions: [String: SubgraphDefinition]

  public init(origin: String, definitions: [String: SubgraphDefinition]) {
    self.origin = origin
    self.definitions = definitions
  }

  /// The origin of the definitions a document holds itself.
  public static let thisDocument = "this document"
}

/// A definition that validated, with its ports.
public struct ResolvedSubgraph: Sendable, Hashable {
  public var name: String
  public var definition: SubgraphDefinition
  /// Where it was defined (`SubgraphSource.origin`).
  public var origin: String
  /// The `input` nodes, in the order of their nodes.
  public var inputs: [SubgraphPort] { didSet { inputIndexes = Self.indexes(inputs) } }
  /// `inputs` by name (the first of a name), so an edge finds its port in O(1): a definition
  /// may have thousands of inputs, and each edge into an instance looks one up.
  private var inputIndexes: [String: Int]
  /// The `output` nodes, in the order of their nodes; each has the type of the port feeding it.
  public var outputs: [SubgraphPort]
  /// How many nodes one instance inlines (itself included), saturating at `Int.max`: nested
  /// instances multiply, so a small document can ask for a huge graph.
  public var inlinedSize = 1

  public init(
    name: String, definition: SubgraphDefinition, origin: String, inputs: [SubgraphPort], outputs: [SubgraphPort],
    inlinedSize: Int = 1
  ) {
    self.name = name
    self.definition = definition
    self.origin = origin
    self.inputs = inputs
    self.outputs = outputs
    self.inlinedSize = inlinedSize
    self.inputIndexes = Self.indexes(inputs)
  }

  private static func indexes(_ ports: [SubgraphPort]) -> [String: Int] {
    var indexes: [String: Int] = [:]
    for (index, port) in ports.enumerated() where indexes[port.name] == nil { indexes[port.name] = index }
    return indexes
  }

  /// The input port named `name`, if any.
  public func input(named name: String) -> SubgraphPort? { inputIndexes[name].map { inputs[$0] } }

  /// The signature of an instance: the definition's inputs and outputs.
  public var signature: NodeSignature {
    NodeSignature(
      inputs: inputs.map { PortDeclaration($0.name, $0.type) },
      outputs: outputs.map { PortDeclaration($0.name, $0.type) })
  }

  /// `loan (in lib.flow.json)`, or just the name for this document's own.
  public var place: String { origin == SubgraphSource.thisDocument ? "'\(name)'" : "'\(name)' (in \(origin))" }
}
