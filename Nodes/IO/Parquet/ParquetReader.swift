import FlowRuntime

/// Reads a flat Parquet file into a table: the footer, then each wanted column's chunks (row
/// groups and columns in parallel, each chunk's bytes read only when it is decoded), converted
/// by their types (see `ParquetColumnConversion`).
///
/// A nested column (a group: struct, list, map; or a repeated field) fails naming it when it
/// is read; the others are read without it when `columns` leaves it out. Before decoding, the
/// row count is checked against the row limit and the columns' sizes against the memory
/// limit; every offset and length in the file is checked (`ParquetError`, never a trap).
package struct ParquetReader: Sendable {
  /// Only these columns (in the file's order); `nil` for all.
  package var columns: Set<String>?
  package var limits = RunLimits()
  /// The most threads decoding chunks at once; `readParquet` takes its environment's
  /// (`EvaluationEnvironment.workers`).
  package var workers = TableParallelism.defaultWorkers

  /// A reader of every column within `limits`.
  package init(columns: Set<String>? = nil, limits: RunLimits = RunLimits()) {
    self.columns = columns
    self.limits = limits
  }

  /// A top-level field of the schema: a leaf column, or a nested one (`leaf` nil).
  struct Field {
    var element: ParquetSchemaElement
    var leaf: Int?
  }

  /// The table in the Parquet file `data`.
  ///
  /// - Throws: `ParquetError` saying what is wrong (the caller names the file), or `NodeError`
  ///   for a limit.
  package func read(_ data: [UInt8]) throws -> Table { try read(.bytes(data)) }

  /// The table in the Parquet file `source`: its footer, then only the wanted columns' chunks,
  /// each read when it is decoded.
  ///
  /// - Throws: `ParquetError` saying what is wrong (the caller names the file), `NodeError`
  ///   for a limit, `FileAccessError` for a failed read.
  package func read(_ source: ParquetSource) throws -> Table {
    let plan = try planned(source)
    let columns = try Self.columns(
      plan.wanted, plan.metadata.rowGroups, source: source, dataEnd: plan.footerStart, rows: plan.rows,
      byteLimit: limits.maxMemoryBytes, workers: workers)
    return try plan.table(columns, rows: plan.rows)
  }

  /// The row groups of `source`, each to be read as a table of its own (`RowGroups.table`):
  /// what a streamed chain reads, one row group per morsel. The checks are `read`'s but for
  /// the memory limit on the whole file's columns (the chain checks memory after each
  /// morsel); the row groups' tables, in order, hold `read`'s table's rows.
  ///
  /// - Throws: what `read` throws before decoding a column.
  package func rowGroups(_ source: ParquetSource) throws -> RowGroups {
    RowGroups(plan: try planned(source, checksMemory: false), source: source, byteLimit: limits.maxMemoryBytes)
  }

  /// A file's row groups, read one at a time (`ParquetReader.rowGroups`).
  package struct RowGroups: Sendable {
    fileprivate let plan: Plan
    fileprivate let source: ParquetSource
    fileprivate let byteLimit: Int

    /// How many row groups the file has.
    package var count: Int { plan.metadata.rowGroups.count }

    /// Row group `index`'s table, its columns decoded on up to `workers` threads.
    ///
    /// - Throws: what `read` throws for that row group's chunks.
    package func table(_ index: Int, workers: Int) throws -> Table {
      let group = plan.metadata.rowGroups[index]
      let rows = Int(group.rowCount)
      let columns = try ParquetReader.columns(
        plan.wanted, [group], source: source, dataEnd: plan.footerStart, rows: rows, byteLimit: byteLimit,
        workers: workers)
      return try plan.table(columns, rows: rows)
    }
  }

  /// What a read decodes: the footer, the wanted columns, the rows in all (checked against
  /// the row limit; the columns' sizes against the memory limit).
  fileprivate struct Plan: Sendable {
    var metadata: ParquetFileMetaData
    var footerStart: Int
    var wanted: [(element: ParquetSchemaElement, leaf: Int)]
    var rows: Int

    func table(_ columns: [Column], rows: Int) throws -> Table {
      do {
        return try Table(names: wanted.map(\.element.name), columns: columns, rowCount: rows)
      } catch {
        throw ParquetError(error.message)
      }
    }
  }

  private func planned(_ source: ParquetSource, checksMemory: Bool = true) throws -> Plan {
    let (metadata, footerStart) = try Self.footer(source)
    let (fields, leafCount) = try Self.fields(metadata.schema)
    var wanted: [(element: ParquetSchemaElement, leaf: Int)] = []
    for field in fields where columns?.contains(field.element.name) ?? true {
      guard let leaf = field.leaf else {
        throw ParquetError(
          column: field.element.name, "a nested column (a list, map or struct); only flat columns are read")
      }
      wanted.append((field.element, leaf))
    }
    var total = 0
    for (index, group) in metadata.rowGroups.enumerated() {
      guard group.rowCount >= 0, group.rowCount <= Int64(Int32.max) * 64, group.columns.count == leafCount else {
        throw ParquetError(
          "row group \(index + 1) has \(group.rowCount) rows in \(group.columns.count) columns for \(leafCount) in the schema"
        )
      }
      let (sum, overflow) = total.addingReportingOverflow(Int(group.rowCount))
      guard !overflow else { throw ParquetError("the row groups hold more rows than an integer can count") }
      total = sum
    }
    try limits.checkRows(total, of: "the Parquet file")
    var estimate = 0
    for (element, leaf) in wanted {
      guard let type = element.type, (0...7).contains(type) else {
        throw ParquetError(column: element.name, "an unknown physical type")
      }
      for group in metadata.rowGroups {
        let chunk = group.columns[leaf]
        guard chunk.type == type else {
          throw ParquetError(column: element.name, "the column chunk's type \(chunk.type) is not the schema's \(type)")
        }
        guard ParquetCodec.isSupported(chunk.codec) else {
          throw ParquetError(column: element.name, "codec \(ParquetCodec.name(chunk.codec)) is not supported yet")
        }
        estimate = Self.saturating(estimate, Int(clamping: max(0, chunk.totalUncompressedSize)))
      }
    }
    let (cells, overflow) = total.multipliedReportingOverflow(by: 9 * wanted.count)
    if checksMemory {
      try limits.checkMemory(
        adding: Self.saturating(estimate, overflow ? Int.max : cells), for: "the Parquet file's columns")
    }
    return Plan(metadata: metadata, footerStart: footerStart, wanted: wanted, rows: total)
  }

  /// `a + b`, or `Int.max` past it.
  private static func saturating(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }

  /// The footer of `data`, after checking the magic numbers and the footer's length.
  static func footer(_ data: [UInt8]) throws -> ParquetFileMetaData { try footer(.bytes(data)).metadata }

  /// The footer of `source` and where it starts, after checking the magic numbers and the
  /// footer's length.
  static func footer(_ source: ParquetSource) throws -> (metadata: ParquetFileMetaData, start: Int) {
    let magic = Array("PAR1".utf8)
    let size = source.count
    guard size >= 12, try source.bytes(0..<4) == magic else {
      throw ParquetError("not a Parquet file (no PAR1 at its start)")
    }
    let tail = try source.bytes(size - 8..<size)
    guard Array(tail[4...]) == magic else {
      throw ParquetError(
        Array(tail[4...]) == Array("PARE".utf8)
          ? "an encrypted Parquet file is not supported" : "the file is truncated (no PAR1 at its end)")
    }
    let length = Int(ParquetValues.littleEndian(tail, 0, 4))
    guard length <= size - 12 else { throw ParquetError("the footer's length \(length) is longer than the file") }
    let start = size - 8 - length
    let footer = try source.bytes(start..<size - 8)
    return (try ParquetFileMetaData(footer, from: 0, to: footer.count), start)
  }

  /// The root's children, with the leaf column index of each flat one, and the number of leaves.
  static func fields(_ schema: [ParquetSchemaElement]) throws(ParquetError) -> (fields: [Field], leaves: Int) {
    guard let root = schema.first, let childCount = root.childCount else {
      throw ParquetError("the schema has no root")
    }
    var fields: [Field] = []
    var index = 1
    var leaf = 0
    for _ in 0..<min(childCount, schema.count) {
      guard index < schema.count else { throw ParquetError("the schema ends early") }
      let element = schema[index]
      if element.childCount == nil, element.repetition != 2 {
        fields.append(Field(element: element, leaf: leaf))
        leaf += 1
        index += 1
      } else {
        fields.append(Field(element: element, leaf: nil))
        let (end, leaves) = try subtree(schema, at: index)
        index = end
        leaf += leaves
      }
    }
    guard index == schema.count, fields.count == childCount else {
      throw ParquetError("the schema's element counts do not add up")
    }
    return (fields, leaf)
  }

  /// The end of the subtree at `start` and how many leaves it holds.
  private static func subtree(_ schema: [ParquetSchemaElement], at start: Int) throws(ParquetError) -> (
    end: Int, leaves: Int
  ) {
    var pending = 1
    var index = start
    var leaves = 0
    while pending > 0 {
      guard index < schema.count else { throw ParquetError("the schema ends early") }
      pending -= 1
      if let children = schema[index].childCount { pending += children } else { leaves += 1 }
      index += 1
    }
    return (index, leaves)
  }
}
