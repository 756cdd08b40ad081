import FlowRuntime

/// When `readCSV` stores a string column in `StringColumn`'s dictionary layout (one code per
/// row and each distinct string once), so that grouping, joining, sorting and comparing with a
/// constant work on small integers:
///
/// - each chunk's parser encodes its string cells while the chunk has at most
///   `chunkEntries` distinct strings, and turns flat (for the rest of the chunk) at the first
///   string past that: a high-cardinality column costs at most `chunkEntries` hashed cells;
/// - the chunks' dictionaries are merged in chunk order (so codes follow the first appearance
///   in the file, whatever the thread count) while the merged one stays within
///   `StringColumn.maximumDictionaryEntries`; a flat chunk makes the column flat;
/// - a column read whole keeps the layout if its dictionary has at most `smallEntries`
///   entries or at most one per `rowsPerEntry` rows (a null counts as the empty string).
///
/// The strings are the same either way. Which layout a column with more than `smallEntries`
/// distinct strings gets may depend on how the file was cut into chunks, never its values.
/// A reader whose `CSVReadStrategy.encodesDictionaries` is off reads every column flat.
enum CSVDictionaryEncoding {
  static let chunkEntries = 4096
  static let smallEntries = 256
  static let rowsPerEntry = 16

  /// Whether a whole column of `rows` rows keeps a dictionary of `entries` entries.
  static func keeps(entries: Int, rows: Int) -> Bool {
    entries <= smallEntries || entries * rowsPerEntry <= rows
  }

  /// `column` as a finished column keeps it: a dictionary column past `keeps` made flat.
  static func finished(_ column: StringColumn) -> StringColumn {
    guard let dictionary = column.dictionary, !keeps(entries: dictionary.count, rows: column.count) else {
      return column
    }
    return column.flattened()
  }
}
