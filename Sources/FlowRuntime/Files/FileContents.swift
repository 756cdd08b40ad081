/// Reading whole files for file nodes: cancellable mid-file, reporting bytes read.
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
}
