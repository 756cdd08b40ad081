import Foundation
import FlowGraph
import FlowRuntime

/// One `flow calc` session: a `FlowStore` evaluated by a `FlowEngine`, driven one command line
/// at a time. Every accepted change waits for the engine's pass and prints what that pass
/// recomputed (`+Output`); a rejected command throws `CalcError` and changes nothing.
///
/// Used from one task only (the command loop); not `Sendable`.
final class CalcSession {
  /// What the loop does after a line.
  enum Outcome { case next, quit }

  let context: CommandContext
  let engine: FlowEngine
  var store: FlowStore { engine.store }
  /// The next number tried for an edge id (`e1`, `e2`, …).
  var nextEdgeNumber = 1
  /// The nodes `node` made in this session: `save` writes them with their handles, and what
  /// was loaded as it was read.
  var createdNodeIDs: Set<String> = []

  init(context: CommandContext) throws(GraphValidationError) {
    self.context = context
    engine = try FlowEngine(store: FlowStore(catalog: context.registry), registry: context.registry)
  }

  func shutDown() { engine.shutDown() }

  /// Runs one line; a rejected command prints `error: <reason>` on stderr.
  func perform(_ line: String) async -> Outcome {
    let words = CalcTokenizer.words(line)
    guard let command = words.first, !command.hasPrefix("#") else { return .next }
    let arguments = Array(words.dropFirst())
    do throws(CalcError) {
      switch command {
      case "node": try await addNode(arguments)
      case "connect": try await connect(arguments)
      case "disconnect": try await disconnect(arguments)
      case "set": try await set(arguments)
      case "delete": try await delete(arguments)
      case "show": try await show(arguments)
      case "undo": try await step(arguments, undo: true)
      case "redo": try await step(arguments, undo: false)
      case "save": try save(arguments)
      case "load": try await load(arguments)
      case "help": context.write(CalcCommand.spec.discussion + "\n")
      case "quit", "exit": return .quit
      default:
        throw CalcError(
          "unknown command '\(command)'" + Suggestion.hint(for: command, among: Self.commandNames)
            + " (try 'help')")
      }
    } catch {
      context.warn("error: \(error.reason)")
    }
    return .next
  }

  static let commandNames = [
    "node", "connect", "disconnect", "set", "delete", "show", "undo", "redo", "save",
    "load", "help", "quit"
  ]

  /// Applies a store mutation; if the store accepts it, prints what the pass recomputed.
  /// Messages name connections as the user typed them (`inUserTerms`), `adding` among them.
  func change(
    adding edge: (edge: FlowEdge, command: String)? = nil,
    _ body: () throws(GraphValidationError) -> Void
  ) async throws(CalcError) {
    let before = store.revision
    do { try body() } catch { throw CalcError(inUserTerms(CalcError(error).reason, pending: edge)) }
    guard store.revision != before else { return }
    await printPass(after: store.revision)
  }

  /// Checks that a command got between `minimum` and `maximum` arguments.
  func expect(_ arguments: [String], _ minimum: Int, _ maximum: Int, usage: String) throws(CalcError) {
    guard (minimum...maximum).contains(arguments.count) else { throw CalcError("usage: \(usage)") }
  }

  /// Parses `PARAM=JSON` (a value that is not JSON is a string, as with `flow run --set`).
  static func assignment(_ word: String) throws(CalcError) -> (name: String, value: JSONValue) {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
      throw CalcError("expected PARAM=JSON, got '\(word)'")
    }
    let text = String(word[word.index(after: equals)...])
    let value = (try? JSONValue.parse(text)) ?? .string(text)
    return (String(word[..<equals]), value)
  }

  /// Splits `NODE.PORT` at its last dot (`NODE` alone means the node's only port).
  static func endpoint(_ word: String) -> (node: String, port: String?) {
    guard let dot = word.lastIndex(of: ".") else { return (word, nil) }
    return (String(word[..<dot]), String(word[word.index(after: dot)...]))
  }

  func requireNode(_ id: String) throws(CalcError) -> FlowNode {
    guard let node = store.node(id: id) else {
      throw CalcError("there is no node '\(id)'" + Suggestion.hint(for: id, among: store.nodes.map(\.id)))
    }
    return node
  }

  /// The node's ports, from its kind.
  func signature(of node: FlowNode) -> NodeSignature? {
    let catalog = SubgraphCatalog(base: context.registry, library: store.subgraphLibrary)
    if case .resolved(let signature) = catalog.resolve(node.data) { return signature }
    return nil
  }
}

/// Why a `flow calc` command was rejected.
struct CalcError: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
  init(_ error: GraphValidationError) { reason = error.issues.map(\.message).joined(separator: "; ") }
}
