import Foundation
import FlowGraph
import FlowRuntime

/// Reads a document file, as `run` and `validate` do.
enum DocumentLoading {
  /// The bytes of `path` (`-` is standard input).
  static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
    if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandFailure(.invalidDocument, ["\(path): error: cannot read the file: no such file"])
    }
    guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure(.invalidDocument, ["\(path): error: cannot read the file" + (isDirectory.boolValue ? ": it is a directory" : "")])
    }
    return Array(data)
  }

  /// Parses the document in `path` without validating its graph.
  static func document(_ path: String) throws(CommandFailure) -> FlowDocument {
    let bytes = try read(path)
    do { return try FlowDocument(jsonBytes: bytes) } catch { throw CommandFailure.load(error, file: path) }
  }

  /// Validates `document` against `registry`.
  static func validate(_ document: FlowDocument, registry: NodeKindRegistry, file: String) throws(CommandFailure) -> ResolvedGraph {
    do { return try DocumentValidator.validate(document, catalog: registry) } catch {
      throw CommandFailure.load(.invalid(withSuggestions(error, document: document, registry: registry)), file: file)
    }
  }

  /// Adds "did you mean 'add'?" to each unknown-kind issue whose kind is close to a known one.
  static func withSuggestions(_ error: GraphValidationError, document: FlowDocument,
                              registry: NodeKindRegistry) -> GraphValidationError {
    var error = error
    let names = registry.allKinds.map(\.name)
    for index in error.issues.indices where error.issues[index].code == .unknownKind {
      guard let id = error.issues[index].nodeIDs.first,
            let node = document.nodes.first(where: { $0.id == id }) else { continue }
      error.issues[index].message += Suggestion.hint(for: node.data.kind, among: names)
    }
    return error
  }
}
