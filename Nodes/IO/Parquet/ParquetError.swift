/// A Parquet file that cannot be read: what is wrong, naming the column where one is concerned
/// (the reader prefixes the file's path).
struct ParquetError: Error, Hashable, Sendable, CustomStringConvertible {
  var message: String

  init(_ message: String) { self.message = message }

  /// An error about column `column`: `column 'name': message`.
  init(column: String, _ message: String) { self.message = "column '\(column)': \(message)" }

  var description: String { message }
}
