import Foundation
import Testing
@testable import FlowRuntime

/// The file-access policy: what leaves the allowed folders is refused, however it is spelled,
/// and what is checked is what is opened.
@Suite struct FileAccessPolicyTests {
  /// root/doc (the document's folder, with data.csv and sub/), root/outside (with secret.txt),
  /// and in doc: `link` → outside, `nested` → link, `rel` → ../outside (relative), `file-link`
  /// → outside/secret.txt, `inside-link` → doc/sub, `dev` → /dev, `.git/config`, `.env`.
  static func layout() throws -> (root: String, doc: String, outside: String) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-policy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let root = FileAccessPolicy.canonical(url.path)
    let doc = root + "/doc", outside = root + "/outside"
    let manager = FileManager.default
    try manager.createDirectory(atPath: doc + "/sub", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: doc + "/.git", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try Data("a\n".utf8).write(to: URL(fileURLWithPath: doc + "/data.csv"))
    try Data("[core]\n".utf8).write(to: URL(fileURLWithPath: doc + "/.git/config"))
    try Data("KEY=1\n".utf8).write(to: URL(fileURLWithPath: doc + "/.env"))
    try Data("s".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
    try manager.createSymbolicLink(atPath: doc + "/link", withDestinationPath: outside)
    try manager.createSymbolicLink(atPath: doc + "/nested", withDestinationPath: "link")
    try manager.createSymbolicLink(atPath: doc + "/rel", withDestinationPath: "../outside")
    try manager.createSymbolicLink(atPath: doc + "/file-link", withDestinationPath: outside + "/secret.txt")
    try manager.createSymbolicLink(atPath: doc + "/inside-link", withDestinationPath: doc + "/sub")
    try manager.createSymbolicLink(atPath: doc + "/dev", withDestinationPath: "/dev")
    return (root, doc, outside)
  }

  static func documentPolicy(_ doc: String) -> FileAccessPolicy {
    FileAccessPolicy(readableRoots: [doc], writableRoots: [doc])
  }

  @Test func pathsInsideTheDocumentsFolderResolve() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = Self.documentPolicy(doc)
    #expect(try policy.resolve("data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    #expect(try policy.resolve("./sub/../data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    #expect(try policy.resolve("sub/out.csv", relativeTo: doc, for: .write) == doc + "/sub/out.csv")
    #expect(try policy.resolve(doc + "/data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    #expect(try policy.resolve("inside-link/x", relativeTo: doc, for: .write) == doc + "/sub/x")
    #expect(try policy.resolve("../doc/data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
    // A missing component followed by `..` is taken as written, then checked as any other.
    #expect(try policy.resolve("nx/../data.csv", relativeTo: doc, for: .read) == doc + "/data.csv")
  }

  /// Every spelling of an escape, for reading and for writing.
  static let escapes = [
    "../outside/secret.txt", "sub/../../outside/x.txt", "/etc/passwd", "..", "nope/../../outside/secret.txt",
    "link/secret.txt", "nx/../link/secret.txt", "nx/../link2/x", "nested/secret.txt", "rel/secret.txt",
    "nx/ny/../../rel/secret.txt", "file-link", "sub/../file-link", "dev/null", "dev/zero", "link/../doc/data.csv",
    ".git/config", ".env", "sub/../.git/config", "./.env", ".hidden/new.txt", "inside-link/../.env"
  ]

  @Test(arguments: escapes)
  func escapesAreRefusedForReadingAndWriting(path: String) throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createSymbolicLink(atPath: doc + "/link2", withDestinationPath: outside)
    let policy = Self.documentPolicy(doc)
    #expect(throws: FileAccessError.outside(path, access: .read)) { try policy.open(path, relativeTo: doc) }
    #expect(throws: FileAccessError.outside(path, access: .write)) { try policy.target(path, relativeTo: doc) }
    #expect(throws: FileAccessError.outside(path, access: .read)) {
      try policy.resolve(path, relativeTo: doc, for: .read)
    }
  }

  @Test(arguments: ["new/.git/config", "new/deeper/.env", "a/b/.hidden/x.csv"])
  func aRefusedWriteMakesNoFolder(path: String) throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = Self.documentPolicy(doc)
    #expect(throws: FileAccessError.outside(path, access: .write)) {
      try policy.target(path, relativeTo: doc, createFolders: true)
    }
    let first = String(path.prefix { $0 != "/" })
    #expect(!FileManager.default.fileExists(atPath: doc + "/" + first), "\(first)/ was made for a refused write")
    #expect(try policy.target("new/ok/x.csv", relativeTo: doc, createFolders: true).path == doc + "/new/ok/x.csv")
  }

  @Test func theMessageNamesTheOptionThatAllowsIt() {
    #expect(FileAccessError.outside("x", access: .read).message.hasPrefix("path outside the allowed folders: x"))
    #expect(FileAccessError.outside("x", access: .read).message.contains("--allow-read"))
    #expect(FileAccessError.outside("x", access: .write).message.contains("--allow-write"))
  }

  @Test(arguments: [".", "sub", "sub/", "sub/..", "inside-link"])
  func aFolderIsNeitherReadNorWritten(path: String) throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = Self.documentPolicy(doc)
    #expect(throws: FileAccessError.self) { try policy.target(path, relativeTo: doc) }
    #expect(throws: FileAccessError.self) { try policy.open(path, relativeTo: doc) }
    let listing = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    #expect(listing == ["doc", "outside"])
  }

  @Test func aMissingFolderIsNamed() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let error = #expect(throws: FileAccessError.self) {
      try Self.documentPolicy(doc).target("new/out.csv", relativeTo: doc)
    }
    #expect(error?.message == "cannot write \(doc)/new/out.csv: the folder \(doc)/new does not exist")
    #expect(throws: FileAccessError.self) { try Self.documentPolicy(doc).open("missing.csv", relativeTo: doc) }
  }

  @Test func aFIFODeviceOrSocketIsNoDataFile() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(mkfifo(doc + "/pipe", 0o600) == 0)
    let fifo = #expect(throws: FileAccessError.self) { try Self.documentPolicy(doc).open("pipe", relativeTo: doc) }
    #expect(fifo?.message.contains("not a regular file (a FIFO)") == true)
    #expect(throws: FileAccessError.self) { try Self.documentPolicy(doc).target("pipe", relativeTo: doc) }
    let device = #expect(throws: FileAccessError.self) {
      try FileAccessPolicy.unrestricted.open("/dev/zero", relativeTo: doc)
    }
    #expect(device?.message.contains("character device") == true)
  }

  @Test func allowedFoldersWidenThePolicy() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let reading = FileAccessPolicy(readableRoots: [doc, outside], writableRoots: [doc])
    #expect(try reading.resolve("../outside/secret.txt", relativeTo: doc, for: .read) == outside + "/secret.txt")
    #expect(try reading.resolve("link/secret.txt", relativeTo: doc, for: .read) == outside + "/secret.txt")
    #expect(throws: FileAccessError.self) { try reading.resolve("../outside/new.txt", relativeTo: doc, for: .write) }
    let writing = FileAccessPolicy(readableRoots: [doc], writableRoots: [doc, outside])
    #expect(try writing.resolve("../outside/new.txt", relativeTo: doc, for: .write) == outside + "/new.txt")
    #expect(try writing.resolve("../outside/secret.txt", relativeTo: doc, for: .read) == outside + "/secret.txt")
  }

  @Test func aHiddenFolderNamedByTheHostIsAllowed() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = FileAccessPolicy(readableRoots: [doc, doc + "/.git"], writableRoots: [doc])
    #expect(try policy.resolve(".git/config", relativeTo: doc, for: .read) == doc + "/.git/config")
    #expect(throws: FileAccessError.outside(".git/config", access: .write)) {
      try policy.target(".git/config", relativeTo: doc)
    }
    #expect(throws: FileAccessError.outside(".env", access: .read)) { try policy.open(".env", relativeTo: doc) }
  }

  @Test func aSiblingWithTheSamePrefixIsNotInside() throws {
    let (root, doc, _) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: doc + "2", withIntermediateDirectories: true)
    try Data("x".utf8).write(to: URL(fileURLWithPath: doc + "2/x.txt"))
    #expect(throws: FileAccessError.outside("../doc2/x.txt", access: .read)) {
      try Self.documentPolicy(doc).open("../doc2/x.txt", relativeTo: doc)
    }
  }

  @Test func relativeRootsAndFoldersAreBelowTheWorkingDirectoryNotTheFilesystemRoot() throws {
    let name = "flow-no-such-folder-\(UUID().uuidString)"
    let policy = FileAccessPolicy(readableRoots: [name], writableRoots: [])
    // The root "name" is <cwd>/name (which does not exist), so /name is outside it.
    #expect(throws: FileAccessError.outside("/\(name)/a.txt", access: .read)) {
      try policy.resolve("/\(name)/a.txt", relativeTo: "/", for: .read)
    }
    #expect(FileAccessPolicy.absolute("x/y") == FileAccessPolicy.currentDirectory + "/x/y")
    #expect(FileAccessPolicy.absolute("/x") == "/x")
  }

  // MARK: Races (a component swapped between two steps, through the walk's test seam)

  @Test func aFolderSwappedForALinkAfterItWasOpenedIsStillTheCheckedOne() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let manager = FileManager.default
    try manager.createDirectory(atPath: doc + "/a/b", withIntermediateDirectories: true)
    try Data("inside".utf8).write(to: URL(fileURLWithPath: doc + "/a/b/secret.txt"))
    try manager.createDirectory(atPath: outside + "/b", withIntermediateDirectories: true)
    try Data("OUTSIDE".utf8).write(to: URL(fileURLWithPath: outside + "/b/secret.txt"))
    // Once `a` is open, `a` is renamed away and a link to outside takes its name.
    let file = try Self.documentPolicy(doc).open("a/b/secret.txt", relativeTo: doc) { _, next in
      guard next == "b", !manager.fileExists(atPath: doc + "/a-moved") else { return }
      try? manager.moveItem(atPath: doc + "/a", toPath: doc + "/a-moved")
      try? manager.createSymbolicLink(atPath: doc + "/a", withDestinationPath: outside)
    }
    #expect(try FileContents.read(file) == Array("inside".utf8))
    #expect(manager.fileExists(atPath: doc + "/a-moved"))
  }

  @Test func aComponentSwappedForALinkBeforeItIsLookedAtIsChecked() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let manager = FileManager.default
    try manager.createDirectory(atPath: doc + "/a/b", withIntermediateDirectories: true)
    try Data("inside".utf8).write(to: URL(fileURLWithPath: doc + "/a/b/secret.txt"))
    try manager.createDirectory(atPath: outside + "/b", withIntermediateDirectories: true)
    try Data("OUTSIDE".utf8).write(to: URL(fileURLWithPath: outside + "/b/secret.txt"))
    let swap: (String, String) -> Void = { _, next in
      guard next == "b", !manager.fileExists(atPath: doc + "/a/b-moved") else { return }
      try? manager.moveItem(atPath: doc + "/a/b", toPath: doc + "/a/b-moved")
      try? manager.createSymbolicLink(atPath: doc + "/a/b", withDestinationPath: outside + "/b")
    }
    #expect(throws: FileAccessError.outside("a/b/secret.txt", access: .read)) {
      try Self.documentPolicy(doc).open("a/b/secret.txt", relativeTo: doc, beforeStep: swap)
    }
    try manager.removeItem(atPath: doc + "/a/b")
    try manager.moveItem(atPath: doc + "/a/b-moved", toPath: doc + "/a/b")
    #expect(throws: FileAccessError.outside("a/b/new.txt", access: .write)) {
      try Self.documentPolicy(doc).target("a/b/new.txt", relativeTo: doc, beforeStep: swap)
    }
    #expect(!manager.fileExists(atPath: outside + "/b/new.txt"))
  }

  @Test func aWriteLandsInTheCheckedFolderEvenIfItIsSwappedBeforeTheWrite() throws {
    let (root, doc, outside) = try Self.layout()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let manager = FileManager.default
    let target = try Self.documentPolicy(doc).target("sub/out.txt", relativeTo: doc)
    try manager.moveItem(atPath: doc + "/sub", toPath: doc + "/sub-moved")
    try manager.createSymbolicLink(atPath: doc + "/sub", withDestinationPath: outside)
    try AtomicFileWriter().write(Array("new".utf8), to: target)
    #expect(try String(contentsOfFile: doc + "/sub-moved/out.txt", encoding: .utf8) == "new")
    #expect(try manager.contentsOfDirectory(atPath: outside) == ["secret.txt"])
  }
}
