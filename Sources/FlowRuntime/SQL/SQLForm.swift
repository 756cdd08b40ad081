/// What a standard kind is in SQL (`flow export --sql`): the relational operator it compiles
/// to, or why it has none. Each standard kind declares its form in its own file
/// (``SQLRelationalKind``); the exporter reads it from the registry's kind and switches over
/// these cases, never over kind names.
package enum SQLForm: Sendable, Equatable {
  /// A file read as a table (`readCSV`, `readJSON`, `readParquet`).
  case read(FileFormat)
  case filter, derive, select, sort, groupBy, join, union, distinct, limit, window, unpivot
  /// A table written to a file (`writeCSV`, `writeJSON`, `writeParquet`).
  case write(FileFormat)
  /// No SQL form; the export refuses the node, saying why.
  case none(Refusal)

  /// The file format of a reader or writer.
  package enum FileFormat: Sendable, Equatable {
    case csv, json, parquet
  }

  /// Why a kind has no SQL form.
  package enum Refusal: Sendable, Equatable {
    /// A live kind: its value changes while the graph runs.
    case live
    /// Its columns are the distinct values of a column, known only when the data is read.
    case pivot
    /// It gives a scalar or a list, not a table.
    case scalarOrList
    /// It gives text or a scalar.
    case textOrScalar

    /// The export's reason for a node of kind `kind`.
    package func reason(_ kind: String) -> String {
      switch self {
      case .live: "\(kind) is a live node; live nodes have no SQL form"
      case .pivot:
        "\(kind) has no SQL form: its columns are the distinct values of a column, known only when the data is read "
          + "(export the pipeline up to its input with --node)"
      case .scalarOrList:
        "\(kind) gives a scalar or a list, not a table; only table kinds export (choose table sinks with --node)"
      case .textOrScalar:
        "\(kind) is a text or scalar kind; only table kinds export (choose table sinks with --node)"
      }
    }
  }
}
