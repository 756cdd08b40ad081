import FlowRuntime

/// Reads CSV text into a `Table` (SPEC §5 `readCSV`): RFC 4180 quoting, CRLF or LF, a byte
/// order mark ignored, blank lines skipped; nulls are the unquoted cells equal to a null token;
/// each column's type is inferred (integer, else number, else bool, else string; a cell counts
/// as a number if its text, trimmed of spaces, is one). Numbers are parsed from the bytes.
///
/// - Complexity: one scan of the bytes (two for a column that turns out to be text after
///   numeric cells); memory: the bytes plus the columns.
struct CSVReader {
  var delimiter: UInt8 = UInt8(ascii: ",")
  var header = true
  var nullTokens: [[UInt8]] = CSVReader.defaultNullValues.map { Array($0.utf8) }
  var progress: PassProgress?

  static let defaultNullValues = ["", "NA", "N/A", "NaN", "null"]

  var longestNullToken: Int { nullTokens.map(\.count).max() ?? -1 }

  // `read(_:)` (the table in some bytes) is in `UnsafeCSVColumnParser.swift`, beside the scan.
}
