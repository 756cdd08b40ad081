import Foundation
import Testing
@testable import FlowCommandLine

/// Reading documents that are not regular files, and saying why a read failed (Reference.md, "The `flow` command line", exit 2).
@Suite struct DocumentLoadingTests {
  static let calculator = TestPaths.example("calculator.flow.json")
  static let isRoot = geteuid() == 0

  /// A fresh temporary folder, removed by the caller.
  static func scratchFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-loading-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// `bash -c script` in the package root, with `$FLOW` naming the binary.
  static func bash(_ script: String) async throws -> FlowResult {
    let binary = try #require(FlowProcess.binary)
    return try await FlowProcess.run(
      ["-c", "FLOW=\"$0\"; " + script, binary.path],
      executable: URL(fileURLWithPath: "/bin/bash"))
  }

  @Test func runReadsAFIFO() async throws {
    let folder = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("doc.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let document = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(Self.calculator))
    // The writer blocks in `open` until flow opens the FIFO for reading.
    Thread.detachNewThread {
      guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
      handle.write(document)
      try? handle.close()
    }
    let fromFIFO = try await FlowProcess.run(["run", fifo])
    let fromFile = try await FlowProcess.run(["run", Self.calculator])
    // Unblock the writer should flow have failed before opening the FIFO.
    let unblock = open(fifo, O_RDONLY | O_NONBLOCK)
    if unblock >= 0 { close(unblock) }
    #expect(fromFIFO.status == 0, "\(fromFIFO)")
    #expect(!fromFIFO.stdout.isEmpty)
    #expect(fromFIFO.stdout == fromFile.stdout)
  }

  @Test func runReadsAProcessSubstitution() async throws {
    let result = try await Self.bash("exec \"$FLOW\" run <(cat \(Self.calculator))")
    let expected = try await FlowProcess.run(["run", Self.calculator])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == expected.stdout)
  }

  @Test func runReadsDevStdinFromAPipe() async throws {
    let result = try await Self.bash("cat \(Self.calculator) | \"$FLOW\" run /dev/stdin")
    let expected = try await FlowProcess.run(["run", Self.calculator])
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout == expected.stdout)
  }

  @Test func runReadsStandardInputFromAPipe() async throws {
    let result = try await Self.bash("cat \(Self.calculator) | \"$FLOW\" validate -")
    #expect(result.status == 0, "\(result)")
    #expect(result.stdout.hasPrefix("-: valid"), "\(result)")
  }

  @Test func aDirectoryIsNamedAsOne() async throws {
    let result = try await FlowProcess.run(["run", "Tests/CLITests"])
    #expect(result.status == 2)
    #expect(result.stderr == "Tests/CLITests: error: cannot read the file: is a directory\n", "\(result)")
  }

  @Test func aMissingFileSaysSo() async throws {
    let result = try await FlowProcess.run(["validate", "no/such/file.json"])
    #expect(result.status == 2)
    #expect(result.stderr == "no/such/file.json: error: cannot read the file: no such file or directory\n", "\(result)")
  }

  @Test(.enabled(if: !isRoot, "root reads files whatever their permissions"))
  func anUnreadableFileSaysPermissionDenied() async throws {
    let folder = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("secret.flow.json")
    try Data("{}".utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
    let result = try await FlowProcess.run(["run", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.hasSuffix("cannot read the file: permission denied\n"), "\(result)")
  }

  @Test(.enabled(if: !isRoot, "root reads folders whatever their permissions"))
  func aFileUnderAnUnreadableFolderIsNotReportedAsMissing() async throws {
    let folder = try Self.scratchFolder()
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
      try? FileManager.default.removeItem(at: folder)
    }
    let file = folder.appendingPathComponent("doc.flow.json")
    try Data("{}".utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: folder.path)
    let result = try await FlowProcess.run(["run", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.hasSuffix("cannot read the file: permission denied\n"), "\(result)")
  }

  @Test func errnoReasonsAreLowercaseSentences() {
    #expect(UnsafeFileReading.reason(EACCES) == "permission denied")
    #expect(UnsafeFileReading.reason(ENOENT) == "no such file or directory")
    #expect(UnsafeFileReading.reason(EISDIR) == "is a directory")
    #expect(DocumentLoading.message(.system(EACCES)) == "cannot read the file: permission denied")
  }

  @Test func anEndlessStreamStopsAtTheLimit() throws {
    #expect(throws: CommandFailure.self) { _ = try DocumentLoading.read("/dev/zero", limit: 1 << 20) }
    do {
      _ = try DocumentLoading.read("/dev/zero", limit: 1 << 20)
    } catch {
      #expect(error.status == .invalidDocument)
      #expect(error.lines == ["/dev/zero: error: the document is larger than 1 MiB, the most flow reads"])
    }
  }

  @Test func aFileAtTheLimitIsRead() throws {
    let folder = try Self.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("exact")
    let bytes = [UInt8](repeating: 0x20, count: 200_000)
    try Data(bytes).write(to: file)
    #expect(try DocumentLoading.read(file.path, limit: 200_000) == bytes)
    #expect(throws: CommandFailure.self) { _ = try DocumentLoading.read(file.path, limit: 199_999) }
  }

  @Test func theDefaultLimitIs512MiB() {
    #expect(DocumentLoading.maximumDocumentSize == 512 * 1024 * 1024)
    #expect(DocumentLoading.sizeText(DocumentLoading.maximumDocumentSize) == "512 MiB")
  }
}
