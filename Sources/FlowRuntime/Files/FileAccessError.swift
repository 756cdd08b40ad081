/// A file path a node may not use, or a file it cannot read or write.
public struct FileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The message shown for the failing node.
  public var message: String

  /// An error with `message`.
  public init(_ message: String) { self.message = message }

  /// `path outside the allowed folders: <path>` (Reference.md, "Files and limits"), with the `flow run` option that
  /// would allow `access` there.
  public static func outside(_ path: String, access: FileAccessPolicy.Access) -> FileAccessError {
    let option = access == .read ? "--allow-read" : "--allow-write"
    return FileAccessError("path outside the allowed folders: \(path) (\(option) DIR allows a folder)")
  }

  /// The message.
  public var description: String { message }
}
