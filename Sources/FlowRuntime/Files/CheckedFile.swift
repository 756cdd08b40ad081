import Foundation

/// A file the policy's walk opened for reading: the descriptor is what was checked. Closed when
/// the last reference goes.
package final class CheckedFile: @unchecked Sendable {
  /// The open descriptor (read-only, blocking, close-on-exec). Owned: do not close it.
  package let descriptor: Int32
  /// The canonical absolute path the walk resolved, for messages and outputs.
  package let path: String

  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }
}

/// Where the policy's walk allows a file to be written: the open folder it checked and the
/// name in it (no symlink; absent, or a regular file whose permission bits are kept).
package final class CheckedTarget: @unchecked Sendable {
  /// The open folder descriptor. Owned: do not close it.
  package let folder: Int32
  /// The file's name in `folder` (one component).
  package let name: String
  /// The canonical absolute path of the file.
  package let path: String
  /// The permission bits of the file being replaced, or `nil` for a new file.
  package let mode: mode_t?

  init(folder: Int32, name: String, path: String, mode: mode_t?) {
    self.folder = folder
    self.name = name
    self.path = path
    self.mode = mode
  }

  deinit { close(folder) }
}
