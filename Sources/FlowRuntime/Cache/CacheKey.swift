/// A node's key in the run cache: the SHA-256 of what determines its outputs (kind, kind
/// version, params, product version, the keys of its inputs; a reader's file identity).
package struct CacheKey: Sendable, Hashable {
  /// The 32 bytes of the digest.
  package let bytes: [UInt8]

  /// The key of `bytes` (32 of them).
  package init(bytes: [UInt8]) { self.bytes = bytes }

  /// The digest as 64 lowercase hex digits: the entry's file name.
  package var hex: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
