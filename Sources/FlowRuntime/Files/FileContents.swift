/// Reading files for file nodes, whole or by ranges: cancellable, reporting bytes read.
package enum FileContents {
  /// The bytes of a file the file-access policy opened.
  ///
  /// - Parameters:
  ///   - file: what `FileAccessPolicy.open` returned.
  ///   - progress: where to add the bytes read, and whether the host asked the pass to stop.
  /// - Throws: `FileAccessError` naming the path and the system's reason;
  ///   `CancellationError` if the task is cancelled or the host asks to stop while reading.
  package static func read(_ file: CheckedFile, progress: PassProgress? = nil) throws -> [UInt8] {
    var reported = 0
    let result = try UnsafeFileSystem.readAll(file.descriptor) { count in
      if Task.isCancelled || progress?.isStopRequested == true { throw CancellationError() }
      progress?.addRead(rows: 0, bytes: count - reported)
      reported = count
    }
    switch result {
    case .success(let bytes): return bytes
    case .failure(let error): throw FileAccessError("cannot read \(file.path): \(error.message)")
    }
  }

  /// The size in bytes of a file the file-access policy opened.
  ///
  /// - Throws: `FileAccessError` naming the path and the system's reason.
  package static func size(of file: CheckedFile) throws(FileAccessError) -> Int {
    switch UnsafeFileSystem.size(file.descriptor) {
    case .success(let size): return size
    case .failure(let error): throw FileAccessError("cannot read \(file.path): \(error.message)")
    }
  }

  /// The bytes `range` of a file the file-access policy opened (fewer where the file ends
  /// first). Threads may read ranges of one file at once.
  ///
  /// - Throws: `FileAccessError` naming the path and the system's reason;
  ///   `CancellationError` if the task is cancelled or the host asked the pass to stop.
  package static func read(_ file: CheckedFile, _ range: Range<Int>, progress: PassProgress? = nil) throws -> [UInt8] {
    if Task.isCancelled || progress?.isStopRequested == true { throw CancellationError() }
    switch UnsafeFileSystem.read(file.descriptor, at: range.lowerBound, count: range.count) {
    case .success(let bytes):
      progress?.addRead(rows: 0, bytes: bytes.count)
      return bytes
    case .failure(let error): throw FileAccessError("cannot read \(file.path): \(error.message)")
    }
  }
}
