/// Collects a cache entry's bytes into chunks of `chunkSize` and hands each full chunk to
/// `emit` as it fills, keeping the running checksum, so an entry of any size is written
/// through one buffer and a column is copied from its array once, never gathered whole.
///
/// Invariants: every chunk handed to `emit` but the last is exactly `chunkSize` bytes (a whole
/// number of the checksum's 32-byte blocks), so the checksum of the pieces is the checksum of
/// their concatenation; raw copies read only inside the buffers their callers pass.
struct UnsafeCacheEntrySink {
  /// The bytes handed to `emit` at a time.
  static let chunkSize = 1 << 20
  private var buffer: [UInt8] = []
  private var checksum = UnsafeCacheBytes.Checksum()
  /// The bytes appended so far.
  private(set) var count = 0
  private let emit: (ArraySlice<UInt8>) throws -> Void

  init(emit: @escaping (ArraySlice<UInt8>) throws -> Void) {
    self.emit = emit
    buffer.reserveCapacity(Self.chunkSize)
  }

  mutating func append(_ byte: UInt8) throws {
    buffer.append(byte)
    count += 1
    if buffer.count == Self.chunkSize { try flush() }
  }

  /// Appends `value` little-endian.
  mutating func append<T: FixedWidthInteger>(_ value: T) throws {
    try withUnsafeBytes(of: value.littleEndian) { try append(raw: $0) }
  }

  /// Appends the in-memory bytes of `values` (trivial element types only).
  mutating func append<T: BitwiseCopyable>(contentsOf values: [T]) throws {
    try values.withUnsafeBytes { try append(raw: $0) }
  }

  /// Appends the UTF-8 bytes of `text` after their count (u64).
  mutating func append(_ text: String) throws {
    var text = text
    try append(UInt64(text.utf8.count))
    try text.withUTF8 { try append(raw: UnsafeRawBufferPointer($0)) }
  }

  private mutating func append(raw: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < raw.count {
      let take = min(Self.chunkSize - buffer.count, raw.count - offset)
      buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + take]))
      offset += take
      count += take
      if buffer.count == Self.chunkSize { try flush() }
    }
  }

  private mutating func flush() throws {
    buffer.withUnsafeBytes { checksum.add($0) }
    try emit(buffer[...])
    buffer.removeAll(keepingCapacity: true)
  }

  /// Ends the entry: appends the trailer (the byte count before it, u64, and the checksum of
  /// those bytes, u64) and hands the rest to `emit`.
  mutating func finish() throws {
    let sum = buffer.withUnsafeBytes { checksum.finish($0) }
    let length = UInt64(count)
    for value in [length, sum] { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    count += 16
    try emit(buffer[...])
    buffer.removeAll()
  }
}
