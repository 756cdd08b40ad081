import FlowGraph
import FlowRuntime

/// Reads a document file, as `run` and `validate` do.
package enum DocumentLoading {
  /// The largest document `flow` reads: 512 MiB. Reading stops there, so an endless stream
  /// (`flow run - < /dev/zero`) ends with a clear message instead of exhausting memory.
  static let maximumDocumentSize = 512 << 20

  /// The bytes of `path` (`-` is standard input), read as a stream in chunks, so FIFOs,
  /// `/dev/stdin` and `<(…)` work like regular files.
  ///
  /// - Parameter limit: the most bytes accepted (`maximumDocumentSize` unless a caller says).
  /// - Throws: status 2 naming the file and why it could not be read ("permission denied",
  ///   "no such file or directory", "is a directory", or too large).
  static func read(_ path: String, limit: Int = maximumDocumentSize) throws(CommandFailure) -> [UInt8] {
    let result =
      path == "-"
      ? UnsafeFileReading.contents(of: 0, limit: limit)
      : UnsafeFileReading.contents(ofPath: path, limit: limit)
    switch result {
    case .success(let bytes): return bytes
    case .failure(let failure): throw CommandFailure(.invalidDocument, ["\(path): error: \(message(failure))"])
    }
  }

  /// `document(_:)`'s two steps for `flow-bench`: reading the file (`nil` if it cannot), then
  /// parsing what was read.
  package static func stepwise(_ path: String) -> (() -> FlowDocument?)? {
    switch UnsafeDocumentBytes.load(path, limit: maximumDocumentSize) {
    case .success(let bytes)?: return { bytes.parseReleasing() }
    case .failure?: return nil
    case nil:
      guard let bytes = try? read(path) else { return nil }
      return { try? FlowDocument(jsonBytes: bytes) }
    }
  }

  /// What to say about a failed read.
  static func message(_ failure: UnsafeFileReading.Failure) -> String {
    switch failure {
    case .system(let code): "cannot read the file: \(UnsafeFileReading.reason(code))"
    case .tooLarge(let limit): "the document is larger than \(sizeText(limit)), the most flow reads"
    }
  }

  /// `512 MiB`, `1 KiB`, or `100 bytes`.
  static func sizeText(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }

  /// Parses the document in `path` without validating its graph.
  ///
  /// A regular file is read into a mapping whose pages the parser releases as it passes them
  /// (`UnsafeDocumentBytes`); a stream, or a file with a problem, is read and parsed plainly.
  static func document(_ path: String) throws(CommandFailure) -> FlowDocument {
    if path != "-", let document = try mappedDocument(path) { return document }
    let bytes = try read(path)
    do { return try FlowDocument(jsonBytes: bytes) } catch { throw CommandFailure.load(error, file: path) }
  }

  /// The document of the regular file `path` read through `UnsafeDocumentBytes`, or `nil` when
  /// it is no regular file or has a problem (the plain path then reports it).
  private static func mappedDocument(_ path: String) throws(CommandFailure) -> FlowDocument? {
    switch UnsafeDocumentBytes.load(path, limit: maximumDocumentSize) {
    case .success(let bytes)?: return bytes.parseReleasing()
    case .failure(let failure)?: throw CommandFailure(.invalidDocument, ["\(path): error: \(message(failure))"])
    case nil: return nil
    }
  }

  /// Validates `document` against `registry`.
  static func validate(_ document: FlowDocument, registry: NodeKindRegistry, file: String) throws(CommandFailure)
    -> ResolvedGraph
  {
    do { return try DocumentValidator.validate(document, catalog: registry) } catch {
      throw CommandFailure.load(.invalid(withSuggestions(error, document: document, registry: registry)), file: file)
    }
  }

  /// Adds "did you mean 'add'?" to each unknown-kind issue whose kind is close to a known one.
  static func withSuggestions(
    _ error: GraphValidationError, document: FlowDocument,
    registry: NodeKindRegistry
  ) -> GraphValidationError {
    var error = error
    let names = registry.allKinds.map(\.name)
    for index in error.issues.indices where error.issues[index].code == .unknownKind {
      guard let id = error.issues[index].nodeIDs.first,
        let node = document.nodes.first(where: { $0.id == id })
      else { continue }
      error.issues[index].message += Suggestion.hint(for: node.data.kind, among: names)
    }
    return error
  }
}
