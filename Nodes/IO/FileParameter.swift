import FlowCodecs
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

  /// Whether the path names a gzip file (`.gz`): readers decompress it, writers compress.
  var isGzip: Bool { path.lowercased().hasSuffix(".gz") }

  /// Whether the path (less a `.gz`) ends in `.jsonl` or `.ndjson`: JSON Lines.
  var isJSONLines: Bool {
    var name = path.lowercased()
    if name.hasSuffix(".gz") { name.removeLast(3) }
    return name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson")
  }

  /// The bytes of the file (read access checked); those it decompresses to for a `.gz` path.
  func read() throws -> [UInt8] {
    try read(try open())
  }

  /// The bytes of `file`, opened by `open()`; decompressed for a `.gz` path.
  func read(_ file: CheckedFile) throws -> [UInt8] {
    let bytes: [UInt8]
    do { bytes = try FileContents.read(file, progress: environment.progress) } catch let error as FileAccessError {
      throw NodeError(error.message)
    }
    return isGzip ? try decompressed(bytes) : bytes
  }

  /// The data of the gzip file whose bytes are `bytes`, at most the memory limit's bytes.
  private func decompressed(_ bytes: [UInt8]) throws -> [UInt8] {
    let limit = environment.limits.maxMemoryBytes
    do { return try Gzip.decompress(bytes, limit: limit) } catch {
      let hint =
        error.message.hasPrefix("the data decompresses to more than")
        ? " (the memory limit; raise it with --max-memory)" : ""
      throw NodeError("\(path): \(error.message)\(hint)")
    }
  }

  /// Writes `bytes` atomically (write access checked). Returns the absolute path written, or
  /// `EvaluationEnvironment.notWritten` without touching any file when the environment writes
  /// none (`flow render --values`).
  func write(_ bytes: [UInt8]) throws -> String {
    guard environment.writesFiles else { return EvaluationEnvironment.notWritten }
    let bytes = isGzip ? Gzip.compress(bytes) : bytes
    let target: CheckedTarget
    do {
      target = try environment.fileAccess.target(
        path, relativeTo: environment.documentFolder, createFolders: createsFolders)
    } catch {
      throw NodeError(error.message)
    }
    do { try AtomicFileWriter(environment).write(bytes, to: target, stop: environment.progress) } catch let error
      as FileAccessError
    {
      throw NodeError(error.message)
    }
    return target.path
  }

  /// `write(_:)` with the bytes handed in pieces (see `AtomicFileWriter.write(to:stop:_:)`);
  /// a `.gz` file gathers them and writes them compressed.
  func write(_ produce: ((ArraySlice<UInt8>) throws -> Void) throws -> Void) throws -> String {
    guard environment.writesFiles else {
      try produce { _ in }
      return EvaluationEnvironment.notWritten
    }
    if isGzip {
      var gathered: [UInt8] = []
      try produce { gathered += $0 }
      return try write(gathered)
    }
    let target: CheckedTarget
    do {
      target = try environment.fileAccess.target(
        path, relativeTo: environment.documentFolder, createFolders: createsFolders)
    } catch {
      throw NodeError(error.message)
    }
    do { try AtomicFileWriter(environment).write(to: target, stop: environment.progress, produce) } catch let error
      as FileAccessError
    {
      throw NodeError(error.message)
    }
    return target.path
  }

  /// The declaration of a reader's required `path` param.
  static let declaration = ParameterDeclaration(
    "path", .string, required: true,
    summary: "relative to the document's folder", fileAccess: .read)

  /// The declarations of a writer: `path` and `createFolders`.
  static let writerDeclarations = [
    ParameterDeclaration(
      "path", .string, required: true, summary: "relative to the document's folder", fileAccess: .write),
    ParameterDeclaration(
      "createFolders", .bool, default: .bool(true),
      summary: "make the missing folders of path (inside the allowed folders)")
  ]
}
