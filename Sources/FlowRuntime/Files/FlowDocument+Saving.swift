import FlowGraph

extension FlowDocument {
  /// Writes the document to `path` atomically, as `jsonString()` writes it (keys in the order
  /// they were read, numbers as written): the text goes to a temporary file in the same
  /// folder, flushed and renamed over the target (`AtomicFileWriter`), so a reader sees the
  /// old file or the new one, never half of one; on failure the old file is left as it was and
  /// no temporary file remains.
  ///
  /// ```swift
  /// var document = try FlowDocument(contentsOf: "report.flow.json")
  /// document.nodes[0].position = Position(x: 40, y: 40)
  /// try document.write(to: "report.flow.json")
  /// ```
  ///
  /// - Parameter path: the file, absolute or relative to the working directory, in an existing
  ///   folder. The path is the host's own and is not checked against a file-access policy.
  /// - Throws: `DocumentFileError` naming the path and the system's reason.
  public func write(to path: String) throws(DocumentFileError) {
    do {
      try AtomicFileWriter().write(Array((jsonString() + "\n").utf8), to: FileAccessPolicy.absolutePath(path))
    } catch let error as FileAccessError {
      throw DocumentFileError(path: path, reason: error.message)
    } catch {
      throw DocumentFileError(path: path, reason: "\(error)")
    }
  }
}
