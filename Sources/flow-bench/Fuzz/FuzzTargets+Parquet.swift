import FlowNodes

/// The `parquet` target: `readParquet`'s reader over a mutated file (footer, page headers,
/// levels, encodings and codecs alike). A clean failure is a rejection; a trap ends the
/// campaign.
extension FuzzTargets {
  /// Reads the input as a Parquet file: accepted if it gives a table, rejected if it fails.
  static func parquet(_ bytes: [UInt8]) -> Outcome {
    (try? ParquetReader().read(bytes)) != nil ? .accepted : .rejected
  }
}
