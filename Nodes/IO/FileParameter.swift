import FlowRuntime

/// The `path` param of a file node with what resolves it: the document's folder and the
/// file-access policy of the environment the node was configured in.
struct FileParameter: Sendable {
  /// The path as the document wrote it.
  let path: String
  let environment: EvaluationEnvironment

  init(_ parameters: NodeParameters) {
    path = parameters.string("path") ?? ""
    environment = parameters.environment
  }

  /// The canonical absolute path, if `access` to it is allowed.
  ///
  /// - Throws: `NodeError` (`path outside the allowed folders: <path>` for an escape).
  func resolved(for access: FileAccessPolicy.Access) throws -> String {
    do {
      return try environment.fileAccess.resolve(path, relativeTo: environment.documentFolder, for: access)
    } catch {
      throw NodeError(error.message)
    }
  }

  /// The bytes of the file (read access checked).
  func read() throws -> [UInt8] {
    let resolved = try resolved(for: .read)
    do { return try FileContents.read(resolved, progress: environment.progress) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
  }

  /// Writes `bytes` atomically (write access checked). Returns the absolute path written.
  func write(_ bytes: [UInt8]) throws -> String {
    let resolved = try resolved(for: .write)
    do { try AtomicFileWriter().write(bytes, to: resolved) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
    return resolved
  }

  /// The declaration of a required `path` param.
  static let declaration = ParameterDeclaration("path", .string, required: true,
                                                summary: "relative to the document's folder")
}
