import FlowRuntime

/// Where `ParquetReader` takes a file's bytes from: bytes in memory, or a file the file-access
/// policy opened, read by ranges, so that only the footer and the wanted column chunks are read
/// (and each chunk is held only while it is decoded).
package enum ParquetSource: Sendable {
  /// The whole file in memory.
  case bytes([UInt8])
  /// An opened file of `size` bytes; the bytes read are added to `progress`, which may stop it.
  case file(CheckedFile, size: Int, progress: PassProgress?)

  /// The source of the opened `file`, its size read now.
  ///
  /// - Throws: `FileAccessError` naming the path.
  package static func opened(_ file: CheckedFile, progress: PassProgress? = nil) throws(FileAccessError)
    -> ParquetSource
  {
    .file(file, size: try FileContents.size(of: file), progress: progress)
  }

  /// The file's length in bytes.
  var count: Int {
    switch self {
    case .bytes(let data): data.count
    case .file(_, let size, _): size
    }
  }

  /// The bytes `range` (inside `0..<count`).
  ///
  /// - Throws: `ParquetError` if the file ends before the range does (it shrank while read),
  ///   `FileAccessError` for a failed read, `CancellationError` when the pass is stopped.
  func bytes(_ range: Range<Int>) throws -> [UInt8] {
    switch self {
    case .bytes(let data):
      guard range.lowerBound >= 0, range.upperBound <= data.count else {
        throw ParquetError("the file ends before byte \(range.upperBound)")
      }
      return Array(data[range])
    case .file(let file, _, let progress):
      let bytes = try FileContents.read(file, range, progress: progress)
      guard bytes.count == range.count else {
        throw ParquetError("the file ends before byte \(range.upperBound) (did it change while read?)")
      }
      return bytes
    }
  }
}
