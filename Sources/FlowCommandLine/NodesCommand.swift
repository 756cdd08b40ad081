import FlowGraph
import FlowNodes
import FlowRuntime

/// `flow nodes`: list the node kinds with their ports and params.
enum NodesCommand {
  static let spec = CommandSpec(
    name: "nodes", summary: "List the node kinds this build knows, or a document's subgraph kinds, with their ports.",
    positionals: [],
    options: [
      OptionSpec(
        name: "--format", arity: .single, valueName: "text|json", help: "output format (default text)",
        choices: ["text", "json"]),
      InlinedNodesOption.spec
    ],
    optionalPositionals: ["FILE"])

  static func run(_ arguments: ParsedArguments, _ context: CommandContext, output: inout String) throws(CommandFailure)
    -> ExitStatus
  {
    if let file = arguments.positionals.first {
      try InlinedNodesOption.apply(arguments)
      let document = try DocumentLoading.document(file)
      let expanded = try DocumentLoading.expand(
        document, file: file, registry: DocumentLoading.importing(file, registry: context.registry))
      let subgraphs = expanded.library.names.compactMap { expanded.library[$0] }
      if arguments.value("--format") == "json" {
        output = JSONValue.array(subgraphs.map(SubgraphListing.json(of:))).serialized() + "\n"
      } else {
        output =
          subgraphs.isEmpty
          ? "\(file) defines and imports no subgraph kinds\n"
          : subgraphs.map(SubgraphListing.text(of:)).joined(separator: "\n")
      }
      return .success
    }
    let kinds = context.registry.allKinds
    if arguments.value("--format") == "json" {
      output = JSONValue.array(kinds.map(json(of:))).serialized() + "\n"
    } else {
      output = kinds.map(text(of:)).joined(separator: "\n")
    }
    return .success
  }

  /// Ports of a kind configured with its default params (for `expression`, a sample formula).
  /// Required params get a sample value of their type (a string param also tries the first word
  /// of its summary, such as `sum` for `reduce.op`).
  static func ports(of kind: any NodeKind) -> NodeInstance? {
    var params = JSONObject()
    if kind.name == "expression" { params["formula"] = .string("x") }
    var alternatives = JSONObject()
    for parameter in kind.parameters where parameter.isRequired && params[parameter.name] == nil {
      switch parameter.type {
      case .string:
        params[parameter.name] = .string("x")
        if let word = parameter.summary.split(whereSeparator: { $0 == "," || $0 == " " }).first {
          alternatives[parameter.name] = .string(String(word))
        }
      case .list: params[parameter.name] = .array([.string("x")])
      case .integer, .number: params[parameter.name] = .integer(1)
      case .bool: params[parameter.name] = .bool(false)
      case .record: params[parameter.name] = .object(JSONObject())
      default: break
      }
    }
    let registry = NodeKindRegistry([kind])
    var alternative = params
    for member in alternatives.members { alternative[member.key] = member.value }
    for candidate in [params, alternative] {
      if case .success(let configured) = registry.configure(NodeSpec(kind: kind.name, params: candidate)) {
        return configured.instance
      }
    }
    return nil
  }

  static func text(of kind: any NodeKind) -> String {
    var lines = ["\(kind.name) — \(kind.summary)"]
    if kind.name == "expression" {
      lines.append("  inputs:  one number per variable of the formula (default 0)")
    } else if let instance = ports(of: kind), !instance.inputs.isEmpty {
      lines.append(
        "  inputs:  "
          + instance.inputs.map { "\($0.name): \($0.type) = \($0.defaultValue)\($0.isLazy ? " (lazy)" : "")" }
          .joined(separator: ", "))
    }
    if let instance = ports(of: kind), !instance.outputs.isEmpty {
      lines.append("  outputs: " + instance.outputs.map { "\($0.name): \($0.type)" }.joined(separator: ", "))
    }
    for parameter in kind.parameters {
      let value = parameter.defaultValue.map { " = \($0)" } ?? (parameter.isRequired ? " (required)" : " (optional)")
      lines.append(
        "  param:   \(parameter.name): \(parameter.type)\(value)"
          + (parameter.summary.isEmpty ? "" : " — \(parameter.summary)"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func json(of kind: any NodeKind) -> JSONValue {
    let instance = ports(of: kind)
    let port = { (name: String, type: PortType) -> JSONValue in
      .object(["name": .string(name), "type": .string(type.rawValue)])
    }
    return .object([
      "name": .string(kind.name),
      "summary": .string(kind.summary),
      "inputs": .array(
        kind.name == "expression"
          ? []
          : (instance?.inputs ?? []).map {
            var object: JSONObject = [
              "name": .string($0.name), "type": .string($0.type.rawValue), "default": $0.defaultValue.jsonValue
            ]
            if $0.isLazy { object["lazy"] = .bool(true) }
            return .object(object)
          }),
      "outputs": .array((instance?.outputs ?? []).map { port($0.name, $0.type) }),
      "params": .array(
        kind.parameters.map { parameter in
          var object: JSONObject = [
            "name": .string(parameter.name), "type": .string(parameter.type.rawValue),
            "required": .bool(parameter.isRequired)
          ]
          if let value = parameter.defaultValue { object["default"] = value.jsonValue }
          return .object(object)
        })
    ])
  }
}
