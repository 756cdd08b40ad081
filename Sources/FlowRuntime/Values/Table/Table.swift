/// A table: named, ordered columns of equal length, each typed with a null bitmap (Reference.md, "Values and types").
///
/// Columnar inside (see `Column`): a 336,000-row table is a few arrays per column, not 336,000
/// dictionaries. The columns live in one immutable, shared storage object, so copying a table
/// (passing it along an edge, keeping it as a node's output) is O(1); operations make new
/// tables (`gathering`, `selecting`, `settingColumn`, …) and share the columns they keep.
///
/// **Equality and cutoff.** `==` first compares storage identity (O(1)); only two different
/// storages are compared cell by cell. The engine's cutoff (`Value.isIdentical`) therefore
/// costs O(1) when a node passes a table through, and a structural comparison — no more than
/// building the table cost — when a node made a new table with the same cells (a re-read of an
/// unchanged file still cuts off its descendants).
public struct Table: Sendable, Hashable {
  /// The columns, shared by every copy of the table.
  ///
  /// Invariant: `names.count == columns.count`, names are unique, `indexByName[names[i]] == i`,
  /// and every column holds `rowCount` cells.
  final class Storage: Sendable {
    let names: [String]
    let columns: [Column]
    let rowCount: Int
    let indexByName: [String: Int]

    init(names: [String], columns: [Column], rowCount: Int, indexByName: [String: Int]) {
      self.names = names
      self.columns = columns
      self.rowCount = rowCount
      self.indexByName = indexByName
    }
  }

  let storage: Storage

  /// A table with no columns and `rowCount` rows (0 by default).
  public init(rowCount: Int = 0) {
    storage = Storage(names: [], columns: [], rowCount: rowCount, indexByName: [:])
  }

  /// A table of `columns` named `names`.
  ///
  /// - Parameter rowCount: the number of rows when there are no columns.
  /// - Throws: `TableError` if names repeat or columns differ in length.
  public init(names: [String], columns: [Column], rowCount: Int? = nil) throws(TableError) {
    guard names.count == columns.count else {
      throw TableError("\(names.count) column names for \(columns.count) columns")
    }
    var index: [String: Int] = [:]
    index.reserveCapacity(names.count)
    for (position, name) in names.enumerated() {
      guard index.updateValue(position, forKey: name) == nil else { throw TableError("duplicate column '\(name)'") }
    }
    let rows = columns.first?.count ?? rowCount ?? 0
    for (position, column) in columns.enumerated() where column.count != rows {
      throw TableError("column '\(names[position])' has \(column.count) rows, expected \(rows)")
    }
    storage = Storage(names: names, columns: columns, rowCount: rows, indexByName: index)
  }

  /// A table of `(name, column)` pairs, in order.
  ///
  /// - Throws: `TableError` if names repeat or columns differ in length.
  public init(_ columns: [(name: String, column: Column)]) throws(TableError) {
    try self.init(names: columns.map(\.name), columns: columns.map(\.column))
  }

  /// The number of rows.
  public var rowCount: Int { storage.rowCount }
  /// The number of columns.
  public var columnCount: Int { storage.columns.count }
  /// The column names, in order.
  public var columnNames: [String] { storage.names }
  /// The columns, in order.
  public var columns: [Column] { storage.columns }

  /// The position of the column named `name`.
  public func columnIndex(named name: String) -> Int? { storage.indexByName[name] }

  /// The column named `name`.
  public func column(named name: String) -> Column? {
    storage.indexByName[name].map { storage.columns[$0] }
  }

  /// The column at `index`.
  public func column(at index: Int) -> Column { storage.columns[index] }

  /// The cell at `row` of column `column` (by position), as a value.
  public func cell(row: Int, column: Int) -> Value { storage.columns[column][row] }

  /// The cells of row `row`, in column order.
  public func row(_ row: Int) -> [Value] { storage.columns.map { $0[row] } }

  /// Whether both tables share one storage (then they are equal without looking at cells).
  public func isIdentical(to other: Table) -> Bool { storage === other.storage || self == other }

  /// Whether both tables share one storage.
  public func sharesStorage(with other: Table) -> Bool { storage === other.storage }

  public static func == (a: Table, b: Table) -> Bool {
    if a.storage === b.storage { return true }
    return a.storage.rowCount == b.storage.rowCount && a.storage.names == b.storage.names
      && a.storage.columns == b.storage.columns
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.rowCount)
    hasher.combine(storage.names)
  }
}
