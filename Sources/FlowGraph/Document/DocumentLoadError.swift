/// Why a document could not be loaded: the bytes are not JSON, or the JSON is not a valid graph.
public enum DocumentLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Not JSON; the error says where in the file.
  case syntax(JSONSyntaxError)
  /// JSON, but not a valid document or graph; every problem found is listed.
  case invalid(GraphValidationError)

  public var description: String {
    switch self {
    case .syntax(let error): "invalid JSON at \(error.description)"
    case .invalid(let error): error.description
    }
  }
}
