/// Eight bytes read as one little-endian word, for the bit readers of the entropy decoders
/// (`ZstdBits`) instead of eight byte loads.
///
/// Invariant: a load reads exactly `bytes[at..<at + 8]`, and only where those eight bytes lie
/// inside the array (the caller reads byte by byte otherwise).
enum UnsafeWordLoad {
  /// The little-endian word at `bytes[at..<at + 8]`, or `nil` where those bytes are not all
  /// inside `bytes`.
  static func word(_ bytes: [UInt8], at: Int) -> UInt64? {
    guard at >= 0, bytes.count - at >= 8 else { return nil }
    return bytes.withUnsafeBytes { raw in UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
  }
}
