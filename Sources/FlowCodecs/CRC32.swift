/// CRC-32 (ISO-HDLC, the polynomial 0xEDB88320 reflected), as gzip, zlib and PNG compute it.
///
/// ```swift
/// var crc = CRC32()
/// crc.update(bytes)
/// crc.value  // 0xCBF43926 for the ASCII bytes of "123456789"
/// ```
public struct CRC32: Sendable, Hashable {
  /// The checksum of the bytes given so far.
  public var value: UInt32 { ~state }
  private var state: UInt32 = 0xFFFF_FFFF

  public init() {}

  /// Adds `bytes` to the checksum.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    var crc = state
    for byte in bytes {
      crc = CRC32.table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
    }
    state = crc
  }

  /// Adds `bytes[range]` to the checksum without copying.
  public mutating func update(_ bytes: [UInt8], in range: Range<Int>) {
    var crc = state
    for index in range {
      crc = CRC32.table[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[index])] ^ (crc >> 8)
    }
    state = crc
  }

  static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }
}
