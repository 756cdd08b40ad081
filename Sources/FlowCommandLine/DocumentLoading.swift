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
      throw CommandFailure.load(.invalid(error), file: file)
    }
  }
}
