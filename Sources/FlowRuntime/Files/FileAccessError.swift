/// A file path a node may not use, or a file it cannot read or write.
public struct FileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  /// `path outside the allowed folders: <path>` (SPEC §5).
  public static func outside(_ path: String) -> FileAccessError {
    FileAccessError("path outside the allowed folders: \(path)")
  }

  public var description: String { message }
}
