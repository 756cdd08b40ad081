import Foundation

/// Which folders file nodes may read and write (Reference.md, "Files and limits": a saved graph is untrusted input).
///
/// A path is resolved the way the kernel would follow it, but one component at a time from an
/// opened allowed folder (`openat` with `O_NOFOLLOW`): each symlink is read and its target walked
/// under the same checks, `..` steps up from the real folder, and the file opened at the end is
/// the one checked, so no spelling (`nx/../link/…`) and no symlink swapped in during a run leads
/// out. Components starting with `.` (`.git`, `.ssh`) are outside unless an allowed folder names
/// them or lies inside them. FIFOs, devices and sockets are not data files. A folder you may
/// write you may also read. A relative root or document folder is taken relative to the current
/// working directory (never to `/`).
public struct FileAccessPolicy: Sendable, Hashable {
  /// What a node wants to do with a path.
  public enum Access: Sendable, Hashable { case read, write }

  /// Folders whose trees may be read.
  public var readableRoots: [String]
  /// Folders whose trees may be written (and read).
  public var writableRoots: [String]

  /// A policy allowing the trees of `readableRoots` to be read and those of `writableRoots`
  /// to be written and read (relative roots are below the working directory).
  public init(readableRoots: [String], writableRoots: [String]) {
    self.readableRoots = readableRoots
    self.writableRoots = writableRoots
  }

  /// A policy allowing everything (for hosts that trust their documents).
  public static var unrestricted: FileAccessPolicy { FileAccessPolicy(readableRoots: ["/"], writableRoots: ["/"]) }

  /// The current working directory.
  public static var currentDirectory: String { FileManager.default.currentDirectoryPath }

  /// The canonical absolute path `path` designates, if `access` to it is allowed: for reading,
  /// an existing regular file; for writing, a regular file or a new name in an existing folder.
  ///
  /// The answer is only a name: a node that then opens it by name could be raced. File nodes
  /// use `open(_:relativeTo:)` and `target(_:relativeTo:)`, which return what they checked.
  ///
  /// - Throws: `FileAccessError.outside` if the path leaves the allowed folders, or a
  ///   `FileAccessError` naming the path and the reason it cannot be used.
  public func resolve(_ path: String, relativeTo folder: String, for access: Access) throws(FileAccessError) -> String {
    switch try walk(path, relativeTo: folder, access: access, beforeStep: nil) {
    case .file(let file): return file.path
    case .target(let target): return target.path
    }
  }

  /// Opens the file at `path` for reading, if the policy allows it.
  ///
  /// - Parameter beforeStep: test seam, called before each component is looked at.
  package func open(
    _ path: String, relativeTo folder: String,
    beforeStep: ((String, String) -> Void)? = nil
  ) throws(FileAccessError) -> CheckedFile {
    guard case .file(let file) = try walk(path, relativeTo: folder, access: .read, beforeStep: beforeStep) else {
      throw FileAccessError("cannot read \(path)")
    }
    return file
  }

  /// The checked folder and name to write `path` to, if the policy allows it.
  ///
  /// - Parameter createFolders: make the missing folders on the way (inside the allowed
  ///   folders, each checked as it is made and entered).
  package func target(
    _ path: String, relativeTo folder: String, createFolders: Bool = false,
    beforeStep: ((String, String) -> Void)? = nil
  ) throws(FileAccessError) -> CheckedTarget {
    guard
      case .target(let target) = try walk(
        path, relativeTo: folder, access: .write, createFolders: createFolders,
        beforeStep: beforeStep)
    else {
      throw FileAccessError("cannot write \(path)")
    }
    return target
  }

  private func walk(
    _ path: String, relativeTo folder: String, access: Access, createFolders: Bool = false,
    beforeStep: ((String, String) -> Void)?
  ) throws(FileAccessError) -> CheckedEnd {
    guard !path.isEmpty, !path.utf8.contains(0) else { throw FileAccessError("invalid path '\(path)'") }
    let roots = (access == .write ? writableRoots : readableRoots + writableRoots).compactMap { root in
      Self.realPath(Self.absolute(root)).map(Self.components)
    }
    let start = Self.components(Self.canonical(Self.absolute(folder)))
    let components = path.hasPrefix("/") ? Self.components(path) : start + Self.components(path)
    var walk = UnsafePathWalk(roots: roots, start: start, written: path, access: access, beforeStep: beforeStep)
    return try walk.run(components, goal: access == .read ? .readFile : .writeFile(createFolders: createFolders))
  }

  static func components(_ path: String) -> [String] {
    path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  }

  /// `path` as an absolute path: as it is if it starts with `/`, else below the current
  /// working directory (no symlink resolved: for a host's own paths).
  public static func absolutePath(_ path: String) -> String { absolute(path) }

  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = currentDirectory
    return path.isEmpty ? directory : (directory.hasSuffix("/") ? directory : directory + "/") + path
  }

  /// The canonical absolute path of an existing `absolute` path (symlinks resolved), or `nil`.
  static func realPath(_ absolute: String) -> String? { UnsafeFileSystem.realPath(absolute) }

  /// `absolute` with symlinks resolved where it exists, else with `.` and `..` removed as written
  /// (a host's folder, trusted: never a document's path).
  static func canonical(_ absolute: String) -> String {
    if let real = realPath(absolute) { return real }
    return (absolute as NSString).standardizingPath
  }
}
