import FlowGraph
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowLayout

/// Writing keeps meaning, end to end: 200 random calculator documents with subgraph definitions
/// (their own nodes and edges, a param fed through a definition's `input`, unknown keys at every
/// level, random key orders, integers past 2^53, floats, edges without ids or as strings) go
/// through every in-process writer, and each rewritten document runs to the same outputs as the
/// original; a writer that edits nothing gives the same bytes again.
///
/// The writers: the document's own (`jsonString()`, as `--save` and `flow layout` write it),
/// `flow layout`'s positions, a `FlowStore` host's `export()` (the page's Save), and
/// `calc save`'s `export().withDerivedHandles(from:)`.
@Suite struct RewrittenDocumentRunPropertyTests {
  private static let registry = NodeKindRegistry.standard

  @Test func rewrittenDocumentsRunToTheSameOutputs() async throws {
    var random = SeededRandom(seed: 3_737)
    for round in 0..<200 {
      let text = RandomCalculatorDocument.make(&random).serialized(options: [.distinguishingDoubles])
      let original = try FlowDocument(jsonText: text)
      let canonical = original.jsonString()
      let expected = try await Self.outputs(of: original)
      // Nothing edited: the same bytes from every writer that only reads and writes.
      let reread = try FlowDocument(jsonText: canonical)
      #expect(reread.jsonString() == canonical, "round \(round): document writer")
      let store = try FlowStore(catalog: Self.registry, document: reread)
      let exported = store.export().jsonString()
      #expect(exported == canonical, "round \(round): store export")
      var rewritten = [exported, store.export().withDerivedHandles(from: Self.registry).jsonString()]
      rewritten.append(try Self.laidOut(reread).jsonString())
      for (writer, written) in zip(["store export", "calc save", "layout"], rewritten) {
        let document = try FlowDocument(jsonText: written)
        #expect(document.jsonString() == written, "round \(round): \(writer) is a fixed point")
        #expect(try await Self.outputs(of: document) == expected, "round \(round): \(writer) runs the same")
      }
    }
  }

  /// Every node's outputs (inlined inner nodes included) after one pass, or its failure.
  private static func outputs(of document: FlowDocument) async throws -> [String: String] {
    let engine = try FlowEngine(document: document, registry: registry)
    defer { engine.shutDown() }
    _ = await engine.evaluate()
    var result: [String: String] = [:]
    for node in engine.store.nodes {
      if let failure = await engine.failure(of: node.id) {
        result[node.id] = "! " + failure
      } else if let outputs = await engine.outputs(of: node.id) {
        result[node.id] = outputs.keys.sorted().map { "\($0)=\(outputs[$0].map(Self.exact) ?? "-")" }.joined(
          separator: " ")
      }
    }
    return result
  }

  /// A value with its kind (an integer and a whole `Double` differ).
  private static func exact(_ value: Value) -> String {
    switch value {
    case .integer(let integer): "i\(integer)"
    case .number(let number): "d\(number.bitPattern)"
    default: "\(value)"
    }
  }

  /// `flow layout`: the outer graph (instances as single nodes) laid out into the document.
  private static func laidOut(_ document: FlowDocument) throws -> FlowDocument {
    let expanded = try ExpandedDocument(document, catalog: registry)
    let graph = try DocumentValidator.validate(
      document, catalog: SubgraphCatalog(base: registry, library: expanded.library))
    var document = document
    GraphLayout(graph, sizing: .picture).apply(to: &document, sizes: true)
    return document
  }
}

/// Random calculator documents for `RewrittenDocumentRunPropertyTests`, as JSON.
enum RandomCalculatorDocument {
  static func make(_ random: inout SeededRandom) -> JSONValue {
    var nodes: [JSONValue] = []
    var edges: [JSONValue] = []
    // Outputs a later node may take: (node, port).
    var outputs: [(String, String)] = []
    let count = Int(random.next() % 6) + 2
    for index in 0..<count {
      let id = "n\(index)"
      switch random.next() % 5 {
      case 0, 1:
        nodes.append(node(id, "number", ["value": number(&random)], &random))
        outputs.append((id, "value"))
      case 2:
        nodes.append(node(id, random.next() % 2 == 0 ? "add" : "multiply", ["b": number(&random)], &random))
        if let source = outputs.randomElement(using: &random) { edges.append(edge(source, (id, "a"), &random)) }
        outputs.append((id, "result"))
      case 3:
        var params: [String: JSONValue] = [:]
        if random.next() % 2 == 0 { params["k"] = .integer(Int64(random.next() % 7)) }
        nodes.append(node(id, "scale", params, &random))
        if let source = outputs.randomElement(using: &random) { edges.append(edge(source, (id, "x"), &random)) }
        outputs.append((id, "y"))
      default:
        nodes.append(node(id, "greet", random.next() % 2 == 0 ? ["template": "Dear {n}"] : [:], &random))
        if let source = outputs.randomElement(using: &random) { edges.append(edge(source, (id, "n"), &random)) }
      }
    }
    var flowRuntime: [JSONMember] = [
      JSONMember(key: "formatVersion", value: 1),
      JSONMember(
        key: "subgraphs",
        value: .object(
          JSONObject(
            [
              JSONMember(key: "scale", value: scale(&random)), JSONMember(key: "greet", value: greet(&random))
            ].shuffled(using: &random))))
    ]
    if random.next() % 2 == 0 { flowRuntime.append(JSONMember(key: "x-tool", value: unknown(&random, depth: 2))) }
    var root: [JSONMember] = [
      JSONMember(key: "nodes", value: .array(nodes)), JSONMember(key: "edges", value: .array(edges)),
      JSONMember(key: "flowRuntime", value: .object(JSONObject(flowRuntime.shuffled(using: &random))))
    ]
    if random.next() % 2 == 0 { root.append(JSONMember(key: "x-top", value: unknown(&random, depth: 3))) }
    return .object(JSONObject(root.shuffled(using: &random)))
  }

  /// `scale`: y = x * k (+ an offset through `expression` in some documents), k defaulting to a
  /// random integer.
  static func scale(_ random: inout SeededRandom) -> JSONValue {
    var nodes = [
      node("x", "input", ["name": "x", "default": number(&random)], &random),
      node("k", "input", ["name": "k", "default": .integer(Int64(random.next() % 5) + 1)], &random),
      node("m", "multiply", [:], &random),
      node("y", "output", ["name": "y"], &random)
    ]
    var edges = [edge(("x", "value"), ("m", "a"), &random), edge(("k", "value"), ("m", "b"), &random)]
    if random.next() % 2 == 0 {
      nodes.append(node("shift", "expression", ["formula": "v + 0.25"], &random))
      edges += [edge(("m", "result"), ("shift", "v"), &random), edge(("shift", "result"), ("y", "value"), &random)]
    } else {
      edges.append(edge(("m", "result"), ("y", "value"), &random))
    }
    return definition(nodes, edges, &random)
  }

  /// `greet`: a `format` whose `template` param an `input` feeds (every param is also an input).
  static func greet(_ random: inout SeededRandom) -> JSONValue {
    let nodes = [
      node("t", "input", ["name": "template", "type": "string", "default": "Hello {n}"], &random),
      node("n", "input", ["name": "n", "type": "any", "default": 0], &random),
      node("f", "format", ["template": "{n}?"], &random),
      node("out", "output", ["name": "text"], &random)
    ]
    let edges = [
      edge(("t", "value"), ("f", "template"), &random), edge(("n", "value"), ("f", "n"), &random),
      edge(("f", "text"), ("out", "value"), &random)
    ]
    return definition(nodes, edges, &random)
  }

  static func definition(_ nodes: [JSONValue], _ edges: [JSONValue], _ random: inout SeededRandom) -> JSONValue {
    var members = [JSONMember(key: "nodes", value: .array(nodes)), JSONMember(key: "edges", value: .array(edges))]
    if random.next() % 2 == 0 { members.append(JSONMember(key: "summary", value: "a random definition")) }
    if random.next() % 2 == 0 { members.append(JSONMember(key: "x-definition", value: unknown(&random, depth: 2))) }
    return .object(JSONObject(members.shuffled(using: &random)))
  }

  /// A node object: members in random order, sometimes an unknown key on it and on its data.
  static func node(_ id: String, _ kind: String, _ params: [String: JSONValue], _ random: inout SeededRandom)
    -> JSONValue
  {
    let ordered = params.keys.sorted().shuffled(using: &random).map { JSONMember(key: $0, value: params[$0]!) }
    var data = [
      JSONMember(key: "kind", value: .string(kind)), JSONMember(key: "params", value: .object(JSONObject(ordered)))
    ]
    if random.next() % 3 == 0 { data.append(JSONMember(key: "x-data", value: unknown(&random, depth: 1))) }
    var members = [
      JSONMember(key: "id", value: .string(id)),
      JSONMember(key: "data", value: .object(JSONObject(data.shuffled(using: &random))))
    ]
    if random.next() % 3 == 0 { members.append(JSONMember(key: "x-node", value: unknown(&random, depth: 2))) }
    if random.next() % 2 == 0 {
      members.append(JSONMember(key: "position", value: [.integer(Int64(random.next() % 400)), .number(2.5)]))
    }
    return .object(JSONObject(members.shuffled(using: &random)))
  }

  /// An edge: a full object (sometimes without its id, sometimes with an unknown key), or a string.
  static func edge(_ source: (String, String), _ target: (String, String), _ random: inout SeededRandom) -> JSONValue {
    switch random.next() % 4 {
    case 0: return .string("\(source.0).\(source.1) -> \(target.0).\(target.1)")
    default:
      var members = [
        JSONMember(key: "sourceNodeID", value: .string(source.0)),
        JSONMember(key: "sourceHandleID", value: .string(source.1)),
        JSONMember(key: "targetNodeID", value: .string(target.0)),
        JSONMember(key: "targetHandleID", value: .string(target.1))
      ]
      if random.next() % 3 != 0 {
        members.append(JSONMember(key: "id", value: .string("\(source.0)-\(target.0).\(target.1)")))
      }
      if random.next() % 3 == 0 { members.append(JSONMember(key: "x-edge", value: unknown(&random, depth: 1))) }
      return .object(JSONObject(members.shuffled(using: &random)))
    }
  }

  /// An integer (some past 2^53) or a float, as written.
  static func number(_ random: inout SeededRandom) -> JSONValue {
    switch random.next() % 4 {
    case 0: .integer(Int64(random.next() % 1000))
    case 1: .integer(Int64(1) << 53 + Int64(random.next() % 1000))
    case 2: .number(Double(random.next() % 100_000) / 64)
    default: .number(Double(Int64(random.next() % 100)))
    }
  }

  /// A value for an unknown key: nested objects in random key order, integers of every size,
  /// floats as written.
  static func unknown(_ random: inout SeededRandom, depth: Int) -> JSONValue {
    switch random.next() % (depth > 0 ? 7 : 5) {
    case 0: return .integer(Int64(bitPattern: random.next()))
    case 1: return .number(Double(random.next() % 100_000) / 64)
    case 2: return .number(Double(Int64(random.next() % 1000)))
    case 3: return .string(["zeta", "alpha", "é", ""][Int(random.next() % 4)])
    case 4: return random.next() % 2 == 0 ? .bool(false) : .null
    case 5: return .array((0..<Int(random.next() % 3)).map { _ in unknown(&random, depth: depth - 1) })
    default:
      let keys = ["z", "a", "m", "b"].shuffled(using: &random).prefix(Int(random.next() % 4))
      return .object(JSONObject(keys.map { JSONMember(key: $0, value: unknown(&random, depth: depth - 1)) }))
    }
  }
}
