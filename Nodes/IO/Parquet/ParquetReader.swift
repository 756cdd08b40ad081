import FlowRuntime

/// Reads a flat Parquet file into a table: the footer, then each wanted column's chunks (row
/// groups and columns in parallel), converted by their types (see `ParquetColumnConversion`).
///
/// A nested column (a group: struct, list, map; or a repeated field) fails naming it when it
/// is read; the others are read without it when `columns` leaves it out. Before decoding, the
/// row count is checked against the row limit and the columns' sizes against the memory
/// limit; every offset and length in the file is checked (`ParquetError`, never a trap).
package struct ParquetReader: Sendable {
  /// Only these columns (in the file's order); `nil` for all.
  package var columns: Set<String>?
  package var limits = RunLimits()

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
  package func read(_ data: [UInt8]) throws -> Table {
    let metadata = try Self.footer(data)
    let (fields, leafCount) = try Self.fields(metadata.schema)
    var wanted: [(element: ParquetSchemaElement, leaf: Int)] = []
    for field in fields where columns?.contains(field.element.name) ?? true {
      guard let leaf = field.leaf else {
        throw ParquetError(column: field.element.name, "a nested column (a list, map or struct); only flat columns are read")
      }
      wanted.append((field.element, leaf))
    }
    var total = 0
    for (index, group) in metadata.rowGroups.enumerated() {
      guard group.rowCount >= 0, group.rowCount <= Int64(Int32.max) * 64, group.columns.count == leafCount else {
        throw ParquetError("row group \(index + 1) has \(group.rowCount) rows in \(group.columns.count) columns for \(leafCount) in the schema")
      }
      let (sum, overflow) = total.addingReportingOverflow(Int(group.rowCount))
      guard !overflow else { throw ParquetError("the row groups hold more rows than an integer can count") }
      total = sum
    }
    try limits.checkRows(total, of: "the Parquet file")
    var estimate = 0
    for (element, leaf) in wanted {
      guard let type = element.type, (0...7).contains(type) else { throw ParquetError(column: element.name, "an unknown physical type") }
      for group in metadata.rowGroups {
        let chunk = group.columns[leaf]
        guard chunk.type == type else { throw ParquetError(column: element.name, "the column chunk's type \(chunk.type) is not the schema's \(type)") }
        guard ParquetCodec.isSupported(chunk.codec) else {
          throw ParquetError(column: element.name, "codec \(ParquetCodec.name(chunk.codec)) is not supported yet")
        }
        estimate = Self.saturating(estimate, Int(clamping: max(0, chunk.totalUncompressedSize)))
      }
    }
    let (cells, overflow) = total.multipliedReportingOverflow(by: 9 * wanted.count)
    try limits.checkMemory(adding: Self.saturating(estimate, overflow ? Int.max : cells), for: "the Parquet file's columns")
    let groups = metadata.rowGroups
    let chosen = wanted
    let footerStart = data.count - 8 - Int(ParquetValues.littleEndian(data, data.count - 8, 4))
    let byteLimit = limits.maxMemoryBytes
    let tasks = chosen.count * groups.count
    let chunks = TableParallelism.map(tasks, cells: total * chosen.count) { task -> Result<ParquetChunkReader.Chunk, ParquetError> in
      let (column, group) = task.quotientAndRemainder(dividingBy: max(1, groups.count))
      let reader = ParquetChunkReader(data: data, dataEnd: footerStart, column: groups[group].columns[chosen[column].leaf],
                                      element: chosen[column].element, rows: Int(groups[group].rowCount), byteLimit: byteLimit)
      return Result { () throws(ParquetError) in try reader.read() }
    }
    let built = TableParallelism.map(chosen.count, cells: total * chosen.count) { column -> Result<Column, ParquetError> in
      let element = chosen[column].element
      var parts: [ParquetChunkReader.Chunk] = []
      for group in 0..<groups.count {
        switch chunks[column * groups.count + group] {
        case .success(let chunk): parts.append(chunk)
        case .failure(let error): return .failure(ParquetError(column: element.name, "\(error.message) (row group \(group + 1))"))
        }
      }
      if let text = ParquetColumnConversion.dictionaryColumn(element, parts) { return .success(text) }
      var values = ParquetValues(type: element.type ?? 0, typeLength: element.typeLength)
      var valid: [Bool]? = element.repetition == 1 ? [] : nil
      for var chunk in parts {
        chunk.materialize()
        if groups.count == 1 { values = chunk.values } else { values.append(contentsOf: chunk.values) }
        valid? += chunk.valid ?? []
      }
      return Result { () throws(ParquetError) in try ParquetColumnConversion.column(element, values, valid: valid) }
    }
    var result: [Column] = []
    for column in built { result.append(try column.get()) }
    do {
      return try Table(names: wanted.map(\.element.name), columns: result, rowCount: total)
    } catch {
      throw ParquetError(error.message)
    }
  }

  /// `a + b`, or `Int.max` past it.
  private static func saturating(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }

  /// The footer of `data`, after checking the magic numbers and the footer's length.
  static func footer(_ data: [UInt8]) throws(ParquetError) -> ParquetFileMetaData {
    let magic = Array("PAR1".utf8)
    guard data.count >= 12, Array(data[0..<4]) == magic else { throw ParquetError("not a Parquet file (no PAR1 at its start)") }
    guard Array(data[(data.count - 4)...]) == magic else {
      throw ParquetError(Array(data[(data.count - 4)...]) == Array("PARE".utf8)
        ? "an encrypted Parquet file is not supported" : "the file is truncated (no PAR1 at its end)")
    }
    let length = Int(ParquetValues.littleEndian(data, data.count - 8, 4))
    guard length <= data.count - 12 else { throw ParquetError("the footer's length \(length) is longer than the file") }
    return try ParquetFileMetaData(data, from: data.count - 8 - length, to: data.count - 8)
  }

  /// The root's children, with the leaf column index of each flat one, and the number of leaves.
  static func fields(_ schema: [ParquetSchemaElement]) throws(ParquetError) -> (fields: [Field], leaves: Int) {
    guard let root = schema.first, let childCount = root.childCount else { throw ParquetError("the schema has no root") }
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
    guard index == schema.count, fields.count == childCount else { throw ParquetError("the schema's element counts do not add up") }
    return (fields, leaf)
  }

  /// The end of the subtree at `start` and how many leaves it holds.
  private static func subtree(_ schema: [ParquetSchemaElement], at start: Int) throws(ParquetError) -> (end: Int, leaves: Int) {
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
