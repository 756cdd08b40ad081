import FlowRuntime

/// The `path` param of a file node with what resolves it: the document's folder and the
/// file-access policy of the environment the node was configured in.
struct FileParameter: Sendable {
  /// The path as the document wrote it.
  let path: String
  let environment: EvaluationEnvironment
  /// Whether a write makes the missing folders of its path (`createFolders`, writers only).
  let createsFolders: Bool

  init(_ parameters: NodeParameters) {
    path = parameters.string("path") ?? ""
    environment = parameters.environment
    createsFolders = parameters["createFolders"] != .bool(false)
  }

  /// The file, opened for reading through the policy's walk (what was checked is what is
  /// open).
  ///
  /// - Throws: `NodeError` (`path outside the allowed folders: <path>` for an escape).
  func open() throws -> CheckedFile {
    do {
      return try environment.fileAccess.open(path, relativeTo: environment.documentFolder)
    } catch {
      throw NodeError(error.message)
    }
  }

  /// The bytes of the file (read access checked).
  func read() throws -> [UInt8] {
    let file = try open()
    do { return try FileContents.read(file, progress: environment.progress) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
  }

  /// Writes `bytes` atomically (write access checked). Returns the absolute path written, or
  /// `EvaluationEnvironment.notWritten` without touching any file when the environment writes
  /// none (`flow render --values`).
  func write(_ bytes: [UInt8]) throws -> String {
    guard environment.writesFiles else { return EvaluationEnvironment.notWritten }
    let target: CheckedTarget
    do {
      target = try environment.fileAccess.target(path, relativeTo: environment.documentFolder, createFolders: createsFolders)
    } catch {
      throw NodeError(error.message)
    }
    do { try AtomicFileWriter().write(bytes, to: target, stop: environment.progress) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
    return target.path
  }

  /// `write(_:)` with the bytes handed in pieces (see `AtomicFileWriter.write(to:stop:_:)`).
  func write(_ produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws -> String {
    guard environment.writesFiles else {
      try produce { _ in }
      return EvaluationEnvironment.notWritten
    }
    let target: CheckedTarget
    do {
      target = try environment.fileAccess.target(path, relativeTo: environment.documentFolder, createFolders: createsFolders)
    } catch {
      throw NodeError(error.message)
    }
    do { try AtomicFileWriter().write(to: target, stop: environment.progress, produce) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
    return target.path
  }

  /// The declaration of a reader's required `path` param.
  static let declaration = ParameterDeclaration("path", .string, required: true,
                                                summary: "relative to the document's folder", fileAccess: .read)

  /// The declarations of a writer: `path` and `createFolders`.
  static let writerDeclarations = [
    ParameterDeclaration("path", .string, required: true, summary: "relative to the document's folder", fileAccess: .write),
    ParameterDeclaration("createFolders", .bool, default: .bool(true),
                         summary: "make the missing folders of path (inside the allowed folders)"),
  ]
}
