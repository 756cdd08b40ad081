import Foundation
import Testing
@testable import FlowRuntime

/// Atomic replacement: the old file survives any failure before the rename, byte for byte,
/// and no temporary file is left behind.
@Suite struct AtomicFileWriterTests {
  struct InjectedFailure: Error {}

  static func folder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-atomic-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  @Test func writesAndReplaces() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.txt"
    try AtomicFileWriter().write(Array("one".utf8), to: path)
    try AtomicFileWriter().write(Array("two".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])
  }

  @Test func aFailureBetweenWriteAndRenameLeavesTheOldFileAndNoTemporaryFile() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.csv"
    let old: [UInt8] = Array("old,bytes\n1,2\n".utf8)
    try Data(old).write(to: URL(fileURLWithPath: path))
    var writer = AtomicFileWriter()
    let seen = SeenPath()
    writer.beforeRename = { temporary in
      // The new bytes are complete in the temporary file, in the same folder.
      seen.set(temporary)
      #expect((temporary as NSString).deletingLastPathComponent == folder)
      #expect(
        FileManager.default.contents(atPath: temporary) == Data(Array(repeating: UInt8(ascii: "x"), count: 3_000_000)))
      throw InjectedFailure()
    }
    #expect(throws: InjectedFailure.self) {
      try writer.write(Array(repeating: UInt8(ascii: "x"), count: 3_000_000), to: path)
    }
    #expect(FileManager.default.contents(atPath: path) == Data(old))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.csv"])
    #expect(seen.get() != nil)
  }

  @Test func aMissingFolderFailsNamingIt() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(throws: FileAccessError.self) { try AtomicFileWriter().write([1], to: folder + "/missing/out.txt") }
  }

  @Test func aCancelledTaskDoesNotReplaceTheFile() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.txt"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    // A child added to a cancelled group starts cancelled: no timing involved.
    await #expect(throws: CancellationError.self) {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.cancelAll()
        group.addTask { try AtomicFileWriter().write(Array("new".utf8), to: path) }
        try await group.waitForAll()
      }
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])
  }
  @Test func aReplacedFileKeepsItsPermissionBits() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/secret.env"
    try AtomicFileWriter().write(Array("one".utf8), to: path)
    #expect(chmod(path, 0o600) == 0)
    try AtomicFileWriter().write(Array("two".utf8), to: path)
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o600)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
  }

  @Test(arguments: [200, 237, 250, 255])
  func namesUpToTheFoldersLimitCanBeWritten(length: Int) throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let name = String(repeating: "n", count: length - 4) + ".csv"
    try AtomicFileWriter().write(Array("x".utf8), to: folder + "/" + name)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
  }

  @Test func temporaryNamesAreShortenedOnCharacterBoundariesAndCarryTheWriter() {
    let name = TemporaryFiles.name(for: String(repeating: "é", count: 200), limit: 255)
    #expect(name.utf8.count <= 255)
    #expect(name.hasPrefix(".é"))
    #expect(TemporaryFiles.writer(of: name) == getpid())
    #expect(TemporaryFiles.writer(of: "out.csv") == nil)
    #expect(TemporaryFiles.writer(of: ".out.csv.flowtmp-12-zz") == nil)
  }

  @Test func aTemporaryFileLeftByADeadWriterIsRemovedByTheNextWrite() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A process that has exited: its pid names no process any more.
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let dead = ".out.csv.flowtmp-\(finished.processIdentifier)-1f"
    let live = ".out.csv.flowtmp-\(getppid())-2e"
    for name in [dead, live, ".keep"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))
    }
    try AtomicFileWriter().write(Array("new".utf8), to: folder + "/out.csv")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".keep", live, "out.csv"].sorted())
  }

  @Test func removeAllTakesTheTemporaryFilesOfWritesInFlight() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.txt"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    var writer = AtomicFileWriter()
    writer.beforeRename = { temporary in
      #expect(FileManager.default.fileExists(atPath: temporary))
      // What a host does on SIGTERM (`removeAll`), restricted to this write's file: other
      // tests of this process write beside it.
      let name = (temporary as NSString).lastPathComponent
      #expect(TemporaryFiles.removeInFlight { $0 == name } == 1)
      #expect(!FileManager.default.fileExists(atPath: temporary))
    }
    #expect(throws: FileAccessError.self) { try writer.write(Array("new".utf8), to: path) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])
  }

  @Test func aStopRequestStopsTheWriteAndLeavesNothing() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.txt"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    let progress = PassProgress()
    progress.requestStop()
    let target = try FileAccessPolicy(readableRoots: [], writableRoots: [folder]).target("out.txt", relativeTo: folder)
    #expect(throws: CancellationError.self) {
      try AtomicFileWriter().write(Array(repeating: 1, count: 3 << 20), to: target, stop: progress)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])
  }
}

import Synchronization

/// A path seen inside a `@Sendable` hook.
final class SeenPath: Sendable {
  private let value = Mutex<String?>(nil)
  func set(_ path: String) { value.withLock { $0 = path } }
  func get() -> String? { value.withLock { $0 } }
}
