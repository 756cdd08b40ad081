import FlowCodecs

/// The `zstd` target: the Zstandard decoder over a mutated stream (frames written by the
/// reference library: Huffman literals in one and four streams, described and repeated FSE
/// tables, several blocks, a checksum). A clean failure is a rejection; a trap, or data past
/// the bound, ends the campaign.
extension FuzzTargets {
  /// The bound the target decodes within (the corpus's largest frame holds about 1 MiB).
  static let zstdLimit = 1 << 21

  /// Decodes the input as a Zstandard stream: accepted if it decodes within `zstdLimit`, also
  /// read in place inside a larger buffer with the same result; rejected if it fails.
  static func zstd(_ bytes: [UInt8]) -> Outcome {
    guard let output = try? Zstd.decompress(bytes[...], limit: zstdLimit) else { return .rejected }
    Harness.check(output.count <= zstdLimit, "fuzz zstd: \(output.count) bytes past the bound \(zstdLimit)")
    let inside = [0x28] + bytes + [0xB5, 0x2F]
    let again = try? Zstd.decompress(inside, in: 1..<1 + bytes.count, limit: zstdLimit)
    Harness.check(again == output, "fuzz zstd: the stream read in place decodes differently")
    return .accepted
  }
}
