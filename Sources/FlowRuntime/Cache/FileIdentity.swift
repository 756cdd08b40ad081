import Foundation

/// A file as `stat` sees it: what a reader's cache key and a writer's skip test compare (a
/// changed file changes at least one of them: a rewrite, even of the same bytes, moves the
/// modification time; an atomic replace changes the inode).
package struct FileIdentity: Sendable, Hashable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  /// Modification time in nanoseconds since 1970.
  package var modified: Int64

  package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
  }

  /// The identity of the open file `descriptor`, or `nil` if `fstat` fails.
  package init?(descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    self.init(info)
  }

  /// The identity of the file at `path` (symlinks not followed), or `nil` if it is missing.
  package init?(path: String) {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    self.init(info)
  }

  private init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if os(Linux)
    modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    #else
    modified = Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
    #endif
  }
}
