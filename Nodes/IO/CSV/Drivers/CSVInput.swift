import FlowRuntime

/// What a CSV read reads, at the reader's safe boundary: an opened regular file (read in blocks
/// that `UnsafeCSVFileBuffer` maps or fills) or bytes in memory (a decompressed `.gz`, a test's
/// text). No pointer crosses this boundary: the `Unsafe*` phases behind it make the buffers
/// they scan and hold them for the length of a read (`CSVReader.readInBlocks(_:)`,
/// `readSerially(_:)`).
package enum CSVInput {
  case file(CheckedFile)
  case bytes([UInt8])
}
