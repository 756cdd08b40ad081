/// Why a document file could not be read or written: the path and the reason.
public struct DocumentFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file concerned, as the caller named it.
  public var path: String
  /// What went wrong: the system's reason, or the document's problems.
  public var reason: String
  /// The document's problems when the file was read but its content is no valid document.
  public var loadError: DocumentLoadError?

  public init(path: String, reason: String, loadError: DocumentLoadError? = nil) {
    self.path = path
    self.reason = reason
    self.loadError = loadError
  }

  public var description: String { "\(path): \(reason)" }
}
