/// Builds a `Table` of known column names and types, row by row or column by column.
///
/// ```swift
/// var builder = TableBuilder([("species", .string), ("n", .integer)])
/// try builder.append(row: [.string("Adelie"), .integer(152)])
/// builder.columns[1].appendNull()   // or fill columns directly, keeping lengths equal
/// let table = try builder.build()
/// ```
public struct TableBuilder: Sendable {
  /// The column names, in order.
  public let names: [String]
  /// One builder per column; append to them directly for column-at-a-time work.
  public var columns: [ColumnBuilder]

  /// A builder for columns named and typed by `schema`, with room for `capacity` rows.
  public init(_ schema: [(name: String, type: ColumnType)], capacity: Int = 0) {
    names = schema.map(\.name)
    columns = schema.map { ColumnBuilder($0.type, capacity: capacity) }
  }

  /// The number of complete rows.
  public var rowCount: Int { columns.map(\.count).min() ?? 0 }

  /// Appends one row: one value per column (null, or a value of the column's type; an integer
  /// fits a `number` column).
  ///
  /// - Throws: `TableError` if the row has the wrong length or a value does not fit.
  public mutating func append(row: [Value]) throws(TableError) {
    guard row.count == columns.count else {
      throw TableError("a row of \(row.count) values for \(columns.count) columns")
    }
    for index in 0..<row.count {
      do { try columns[index].append(row[index]) } catch {
        throw TableError("column '\(names[index])': \(error.message)")
      }
    }
  }

  /// The table.
  ///
  /// - Throws: `TableError` if names repeat or columns differ in length.
  public func build() throws(TableError) -> Table {
    try Table(names: names, columns: columns.map { $0.build() })
  }
}
