import Foundation

/// The limits of a run (Reference.md, "Files and limits"): what a document from someone else may make the
/// machine do before its nodes fail.
///
/// The defaults are far beyond ordinary work: a table of at most 100,000,000 rows, a string
/// of at most 256 MiB, and memory up to 80% of the machine's physical memory. A node that
/// passes one fails with a message naming the limit and the `flow run` option that raises it
/// (`--max-rows`, `--max-string-bytes`, `--max-memory`); nothing else of the pass is affected.
///
/// A host sets the limits on the registry's environment (`NodeKindRegistry.environment.limits`)
/// before configuring nodes: kinds read them at `instantiate` (`NodeParameters.environment`)
/// and check what they are about to build *before* building it (`join` counts its output rows,
/// `format` adds up its output's bytes, and checks the memory it is about to take with
/// `checkMemory(adding:for:)`, as `derive`'s string kernels do per block while they build); the
/// evaluator checks every node's outputs (rows of a table, bytes of a string or of any table
/// cell) and, after each expensive node, the process's resident memory.
public struct RunLimits: Sendable, Hashable {
  /// The most rows a table may have (default 100,000,000; `flow run --max-rows`).
  public var maxRows: Int
  /// The most UTF-8 bytes a string may have (default 256 MiB; `flow run --max-string-bytes`).
  public var maxStringBytes: Int
  /// The most resident memory the process may use after an expensive node (default 80% of
  /// physical memory; `flow run --max-memory`).
  public var maxMemoryBytes: Int

  /// The default row limit: 100,000,000.
  public static let defaultMaxRows = 100_000_000
  /// The default string limit: 256 MiB.
  public static let defaultMaxStringBytes = 256 << 20
  /// The default memory limit: 80% of the machine's physical memory (read once).
  public static let defaultMaxMemoryBytes = Int(clamping: ProcessInfo.processInfo.physicalMemory / 5 * 4)

  /// Limits with the given values (the defaults where left out); negative values count as 0.
  public init(
    maxRows: Int = RunLimits.defaultMaxRows, maxStringBytes: Int = RunLimits.defaultMaxStringBytes,
    maxMemoryBytes: Int = RunLimits.defaultMaxMemoryBytes
  ) {
    self.maxRows = max(0, maxRows)
    self.maxStringBytes = max(0, maxStringBytes)
    self.maxMemoryBytes = max(0, maxMemoryBytes)
  }

  /// Checks, before building it, that a table of `rows` rows stays within the row limit.
  ///
  /// - Parameter what: what would have that many rows, for the message (`"join output"`).
  /// - Throws: `NodeError` such as `join output would have 10000000000 rows, more than the
  ///   row limit 100000000 (raise it with --max-rows)`.
  public func checkRows(_ rows: Int, of what: String = "the table") throws(NodeError) {
    let probe = LimitProbe.current
    guard rows <= maxRows else {
      probe?.refused()
      throw rowError(rows, of: what, built: false)
    }
    probe?.granted(rows: rows)
  }

  /// Checks, before building it, that a string of `bytes` UTF-8 bytes stays within the string
  /// limit.
  ///
  /// - Parameter what: what would have that many bytes, for the message (`"format output"`).
  /// - Throws: `NodeError` naming the size, the limit and `--max-string-bytes`.
  public func checkStringBytes(_ bytes: Int, of what: String = "the string") throws(NodeError) {
    let probe = LimitProbe.current
    guard bytes <= maxStringBytes else {
      probe?.refused()
      throw stringError(bytes, of: what, built: false)
    }
    probe?.granted(stringBytes: bytes)
  }

  /// The first limit that a node's new `outputs` pass (a table's rows, a string's bytes) or,
  /// after an `expensive` node or one that output a big value (a string of 1 MiB or more, a
  /// table of 65,536 rows or more), the memory limit; `nil` if none. Costs a switch per
  /// output (a native string knows its UTF-8 count), plus, in those cases only, a read of the
  /// resident size: a few µs per MiB built at most.
  func violation(in outputs: [Value], expensive: Bool) -> NodeError? {
    var big = expensive
    for value in outputs {
      switch value {
      case .table(let table):
        if table.rowCount > maxRows { return rowError(table.rowCount, of: "the output table", built: true) }
        if let error = longCellError(in: table) { return error }
        big = big || table.rowCount >= 1 << 16
      case .string(let text):
        let bytes = text.utf8.count
        if bytes > maxStringBytes { return stringError(bytes, of: "the output string", built: true) }
        big = big || bytes >= 1 << 20
      default: continue
      }
    }
    return big ? memoryViolation() : nil
  }

  /// The string limit's failure for the first table cell longer than it (naming the column and
  /// the 1-based row), else `nil`. A string column whose bytes all together fit the limit is
  /// passed in O(1); only a column holding more than the limit is scanned.
  package func longCellError(in table: Table) -> NodeError? {
    for (index, column) in table.columns.enumerated() {
      guard case .string(let strings) = column.storage else { continue }
      // A dictionary column's cells are its entries: only they are measured (a filtered
      // column may keep entries no row uses any more).
      let entries = strings.dictionary ?? strings
      let (bytes, offsets) = entries.flatLayout
      guard bytes.count > maxStringBytes else { continue }
      let long = (0..<entries.count).map { offsets[$0 + 1] - offsets[$0] > maxStringBytes }
      let row: Int? =
        if let codes = strings.codes { codes.firstIndex { long[Int($0)] } } else { long.firstIndex(of: true) }
      guard let row else { continue }
      return NodeError(
        "cell \(row + 1) of column '\(table.columnNames[index].controlEscaped)' has "
          + "\(strings.utf8(row).count) bytes, more than the string limit \(maxStringBytes) "
          + "(raise it with --max-string-bytes)")
    }
    return nil
  }

  /// The memory limit's failure if the process's resident memory is past it, else `nil`.
  /// One read of `/proc/self/statm` (a few µs): called after expensive nodes only.
  func memoryViolation() -> NodeError? {
    guard let resident = UnsafeResidentMemory.bytes(), resident > maxMemoryBytes else { return nil }
    return NodeError(
      "memory in use (\(Self.size(resident))) is past the memory limit \(Self.size(maxMemoryBytes)) "
        + "(raise it with --max-memory)")
  }

  /// Checks, while a node builds its output, that the process's resident memory plus the
  /// `bytes` it is about to allocate stays within the memory limit: a kernel that knows its
  /// output's size calls it once before allocating (`concat`, `format`); one that does not
  /// calls it once per ``memoryBlockBytes`` it builds (`replace`, the CSV and JSON readers), so a node
  /// overshoots the limit by at most one block. The message names what was being built; the
  /// engine names the node.
  ///
  /// One read of `/proc/self/statm` (a few µs) per call.
  ///
  /// - Throws: `NodeError` such as `column 'c20' would add 240.0 MiB to the memory in use
  ///   (262.1 MiB), past the memory limit 500.0 MiB (raise it with --max-memory)`.
  public func checkMemory(adding bytes: Int, for what: String) throws(NodeError) {
    LimitProbe.current?.checkedMemory(adding: bytes)
    guard let resident = UnsafeResidentMemory.bytes(), resident &+ max(0, bytes) > maxMemoryBytes else { return }
    LimitProbe.current?.refused()
    throw NodeError(
      "\(what) would add \(Self.size(max(0, bytes))) to the memory in use (\(Self.size(resident))), "
        + "past the memory limit \(Self.size(maxMemoryBytes)) (raise it with --max-memory)")
  }

  /// The bytes a kernel may build between two `checkMemory(adding:for:)` calls (16 MiB).
  public static let memoryBlockBytes = 16 << 20

  private func rowError(_ rows: Int, of what: String, built: Bool) -> NodeError {
    NodeError(
      "\(what) \(built ? "has" : "would have") \(rows) rows, more than the row limit \(maxRows) "
        + "(raise it with --max-rows)")
  }

  private func stringError(_ bytes: Int, of what: String, built: Bool) -> NodeError {
    NodeError(
      "\(what) \(built ? "has" : "would have") \(bytes) bytes, more than the string limit \(maxStringBytes) "
        + "(raise it with --max-string-bytes)")
  }

  /// `512 bytes`, `3.5 MiB`, `2.0 GiB`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1 << 10 { return "\(bytes) bytes" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return "\((value * 10).rounded() / 10) \(units[unit])"
  }
}
