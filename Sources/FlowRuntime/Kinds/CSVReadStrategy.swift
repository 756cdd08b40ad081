/// How `readCSV` builds a table: the reader's faster paths, each of which can be turned off
/// to compare with the plain one. The table is the same whichever are on (names, types, rows,
/// cells); only `encodesDictionaries` changes how a text column is stored, never its strings.
///
/// A host sets it on the registry's environment (`NodeKindRegistry.environment.csvRead`)
/// before configuring nodes; `readCSV` takes it at `instantiate` and hands it to its reader,
/// which hands it to the parsers of every block and chunk. Every switch defaults to on.
public struct CSVReadStrategy: Sendable, Hashable {
  /// Whether numeric columns are converted straight into the table's columns from a large
  /// file's second block on, instead of into pieces merged after each block.
  public var convertsNumbersInPlace: Bool
  /// Whether flat text columns are copied straight into the table's columns from a large
  /// file's second block on, instead of into pieces merged after each block.
  public var copiesStringsInPlace: Bool
  /// Whether plain records (no quote, no carriage return) are found from a structural index
  /// of their delimiters and line feeds, instead of field by field.
  public var indexesPlainRecords: Bool
  /// Whether text columns with few distinct strings are stored dictionary-encoded (one code per
  /// row, each string once), so that grouping, joining and sorting on them compare integers.
  public var encodesDictionaries: Bool

  /// A strategy with the given switches (each on where left out).
  public init(
    convertsNumbersInPlace: Bool = true, copiesStringsInPlace: Bool = true, indexesPlainRecords: Bool = true,
    encodesDictionaries: Bool = true
  ) {
    self.convertsNumbersInPlace = convertsNumbersInPlace
    self.copiesStringsInPlace = copiesStringsInPlace
    self.indexesPlainRecords = indexesPlainRecords
    self.encodesDictionaries = encodesDictionaries
  }

  /// Every faster path off: the plain reader (to compare with).
  public static let plain = CSVReadStrategy(
    convertsNumbersInPlace: false, copiesStringsInPlace: false,
    indexesPlainRecords: false, encodesDictionaries: false)
}
