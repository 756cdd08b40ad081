import Foundation

/// Which folders file nodes may read and write (SPEC §5: a saved graph is untrusted input).
///
/// A path is resolved against the document's folder, then made canonical the way the kernel
/// would follow it: each existing component is resolved with `realpath` (so a symlink pointing
/// out is seen for where it leads), `..` steps up from the real folder, and the components that
/// do not exist yet are appended as written. The result must lie inside one of the roots (also
/// canonical). A folder you may write you may also read. A relative root or document folder is
/// taken relative to the current working directory (never to `/`).
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

  /// The canonical absolute path `path` designates, if `access` to it is allowed.
  ///
  /// - Parameters:
  ///   - path: as the document wrote it (relative to `folder`, or absolute).
  ///   - folder: the document's folder.
  /// - Throws: `FileAccessError.outside(path)` if the path leaves the allowed folders, or a
  ///   `FileAccessError` if it cannot be resolved (a dangling symlink).
  public func resolve(_ path: String, relativeTo folder: String, for access: Access) throws(FileAccessError) -> String {
    guard !path.isEmpty, !path.utf8.contains(0) else { throw FileAccessError("invalid path '\(path)'") }
    let base = Self.absolute(folder)
    let absolute = path.hasPrefix("/") ? path : (base.hasSuffix("/") ? base : base + "/") + path
    guard let resolved = Self.canonical(absolute) else {
      throw FileAccessError("cannot resolve '\(path)' (a symlink that leads nowhere)")
    }
    let roots = access == .write ? writableRoots : readableRoots + writableRoots
    for root in roots {
      let absoluteRoot = Self.absolute(root)
      let canonicalRoot = Self.canonical(absoluteRoot) ?? absoluteRoot
      if Self.isInside(resolved, canonicalRoot) { return resolved }
    }
    throw FileAccessError.outside(path)
  }

  /// `path` as an absolute path: as it is if it starts with `/`, else below the current
  /// working directory.
  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let directory = currentDirectory
    return path.isEmpty ? directory : (directory.hasSuffix("/") ? directory : directory + "/") + path
  }

  /// Whether `path` equals `root` or lies below it (whole components).
  static func isInside(_ path: String, _ root: String) -> Bool {
    if root == "/" { return true }
    let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
    return path == trimmed || path.hasPrefix(trimmed + "/")
  }

  /// `absolute` with every existing component resolved (see the type's comment).
  ///
  /// - Complexity: O(components) `lstat`/`realpath` calls; no recursion.
  static func canonical(_ absolute: String) -> String? {
    var resolved: [Substring] = []
    var existing = true
    for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
      if component == "." { continue }
      if component == ".." {
        if !resolved.isEmpty { resolved.removeLast() }
        continue
      }
      resolved.append(component)
      guard existing else { continue }
      let candidate = "/" + resolved.joined(separator: "/")
      if UnsafeFileSystem.exists(candidate) {
        guard let real = UnsafeFileSystem.realPath(candidate) else { return nil }
        resolved = real.split(separator: "/", omittingEmptySubsequences: true)
      } else {
        existing = false
      }
    }
    return "/" + resolved.joined(separator: "/")
  }
}
