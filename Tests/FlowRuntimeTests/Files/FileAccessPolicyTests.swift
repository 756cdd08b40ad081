import Foundation
import Testing
@testable import FlowRuntime

/// The file-access policy: what leaves the allowed folders is refused, however it is spelled.
@Suite struct FileAccessPolicyTests {
  /// root/doc (the document's folder, with data.csv and sub/), root/outside (with secret.txt).
  static func layout() throws -> (root: String, doc: String, outside: String) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-policy-\(UUID().uuidString)")
    let root = FileAccessPolicy.canonical(url.path) ?? url.path
    let doc = root + "/doc", outside = root + "/outside"
    try FileManager.default.createDirectory(atPath: doc + "/sub", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("a\n".utf8).write(to: URL(fileURLWithPath: doc + "/data.csv"))
    try Data("s".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    return (root, doc, outside)
  }

  static func documentPolicy(_ doc: String) -> FileAccessPolicy { FileAccessPolicy(readableRoots: [doc], writableRoots: [doc]) }

  @Test func pathsInsideTheDocumentsFolderResolve() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = Self.documentPolicy(doc)
    #expect(try policy.resolve("data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    #expect(try policy.resolve("./sub/../data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    #expect(try policy.resolve("sub/new/../out.csv", relativeTo: doc, for: .write) == doc + "/sub/out.csv")
    #expect(try policy.resolve(doc + "/data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
  }

  @Test(arguments: ["../outside/secret.txt", "sub/../../outside/x.txt", "/etc/passwd", "..", "nope/../../outside"])
  func escapesAreRefused(path: String) throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(throws: FileAccessError.outside(path)) { try Self.documentPolicy(doc).resolve(path, relativeTo: doc, for: .write) }
    #expect(throws: FileAccessError.outside(path)) { try Self.documentPolicy(doc).resolve(path, relativeTo: doc, for: .read) }
  }

  @Test func symlinksLeadingOutsideAreRefused() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createSymbolicLink(atPath: doc + "/link", withDestinationPath: outside)
    try FileManager.default.createSymbolicLink(atPath: doc + "/file-link", withDestinationPath: outside + "/secret.txt")
    try FileManager.default.createSymbolicLink(atPath: doc + "/inside-link", withDestinationPath: doc + "/sub")
    let policy = Self.documentPolicy(doc)
    #expect(throws: FileAccessError.outside("link/secret.txt")) { try policy.resolve("link/secret.txt", relativeTo: doc, for: .read) }
    #expect(throws: FileAccessError.outside("link/new.txt")) { try policy.resolve("link/new.txt", relativeTo: doc, for: .write) }
    #expect(throws: FileAccessError.outside("file-link")) { try policy.resolve("file-link", relativeTo: doc, for: .read) }
    #expect(try policy.resolve("inside-link/x", relativeTo: doc, for: .write) == doc + "/sub/x")
  }

  @Test func allowedFoldersWidenThePolicy() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let reading = FileAccessPolicy(readableRoots: [doc, outside], writableRoots: [doc])
    #expect(try reading.resolve("../outside/secret.txt", relativeTo: doc, for: .read) == outside + "/secret.txt")
    #expect(throws: FileAccessError.self) { try reading.resolve("../outside/new.txt", relativeTo: doc, for: .write) }
    let writing = FileAccessPolicy(readableRoots: [doc], writableRoots: [doc, outside])
    #expect(try writing.resolve("../outside/new.txt", relativeTo: doc, for: .write) == outside + "/new.txt")
    #expect(try writing.resolve("../outside/secret.txt", relativeTo: doc, for: .read) == outside + "/secret.txt")
  }

  @Test func aSiblingWithTheSamePrefixIsNotInside() {
    #expect(!FileAccessPolicy.isInside("/a/docs2/x", "/a/docs"))
    #expect(FileAccessPolicy.isInside("/a/docs/x", "/a/docs"))
    #expect(FileAccessPolicy.isInside("/a/docs", "/a/docs/"))
  }

  @Test func relativeRootsAndFoldersAreBelowTheWorkingDirectoryNotTheFilesystemRoot() throws {
    let name = "flow-no-such-folder-\(UUID().uuidString)"
    let policy = FileAccessPolicy(readableRoots: [name], writableRoots: [])
    // The root "name" is <cwd>/name, so /name is outside it …
    #expect(throws: FileAccessError.outside("/\(name)/a.txt")) { try policy.resolve("/\(name)/a.txt", relativeTo: "/", for: .read) }
    // … while a path relative to a relative document folder lands inside it.
    let inside = try policy.resolve("a.txt", relativeTo: name, for: .read)
    #expect(inside == FileAccessPolicy.canonical(FileAccessPolicy.currentDirectory)! + "/\(name)/a.txt")
    #expect(FileAccessPolicy.absolute("x/y") == FileAccessPolicy.currentDirectory + "/x/y")
    #expect(FileAccessPolicy.absolute("/x") == "/x")
  }
}

