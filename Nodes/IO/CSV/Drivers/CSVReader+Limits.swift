import FlowRuntime

/// The memory limit while a CSV file becomes columns (the rule: no node overshoots the memory
/// limit by more than one block of what it builds; `RunLimits.checkMemory(adding:for:)`).
///
/// The columns of a block take about as many bytes as the block's text, so each path checks
/// before it converts the next block, adding the block's size: the block reader before each
/// block it parses and before its buffer grows (a record longer than the block), the morsel
/// reader before each morsel, the serial reader once per `RunLimits.memoryBlockBytes` of
/// records (and before its first). A read that would pass the limit fails with the limit's
/// message, which the engine gives the reader node's name.
extension CSVReader {
  /// Checks that the memory in use plus `bytes` about to be built stays within the limit.
  ///
  /// - Throws: `NodeError` such as `reading the file would add 16.0 MiB to the memory in use
  ///   (498.2 MiB), past the memory limit 500.0 MiB (raise it with --max-memory)`.
  func checkMemory(adding bytes: Int) throws(NodeError) {
    try limits?.checkMemory(adding: bytes, for: "reading the file")
  }
}
