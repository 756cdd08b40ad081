/// Collects a cache entry's bytes into chunks of `chunkSize` and hands each full chunk to
/// `emit` as it fills, keeping the running checksum, so an entry of any size is written
/// through one buffer and a column is copied from its array once, never gathered whole.
///
/// Invariants: the buffer is `chunkSize` bytes aligned to `alignment`, allocated by `init` and
/// freed by `deallocate()` (the only owner: `CacheEntryCodec.encode` calls it on every path);
/// every chunk handed to `emit` but the last is exactly `chunkSize` bytes starting at the
/// buffer's base (a whole number of the checksum's 32-byte blocks and of the file system's
/// blocks, so a file opened to bypass the page cache can take it as it is), so the checksum of
/// the pieces is the checksum of their concatenation; a chunk is valid only during `emit`;
/// copies write only below `chunkSize` and read only inside the buffers their callers pass.
struct UnsafeCacheEntrySink {
  /// The bytes handed to `emit` at a time.
  static let chunkSize = 1 << 20
  /// The alignment of the buffer (a page: what direct I/O asks of memory).
  static let alignment = 4_096
  private let buffer: UnsafeMutableRawBufferPointer
  private var used = 0
  private var checksum = UnsafeCacheBytes.Checksum()
  /// The bytes appended so far.
  private(set) var count = 0
  private let emit: (UnsafeRawBufferPointer) throws -> Void

  init(emit: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.emit = emit
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: Self.alignment)
  }

  /// Frees the buffer; the sink is not used afterwards.
  func deallocate() { buffer.deallocate() }

  mutating func append(_ byte: UInt8) throws {
    buffer[used] = byte
    used += 1
    count += 1
    if used == Self.chunkSize { try flush() }
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
      let take = min(Self.chunkSize - used, raw.count - offset)
      UnsafeMutableRawBufferPointer(rebasing: buffer[used..<used + take])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + take]))
      offset += take
      used += take
      count += take
      if used == Self.chunkSize { try flush() }
    }
  }

  private mutating func flush() throws {
    checksum.add(UnsafeRawBufferPointer(buffer))
    try emit(UnsafeRawBufferPointer(buffer))
    used = 0
  }

  /// Ends the entry: appends the trailer (the byte count before it, u64, and the checksum of
  /// those bytes, u64) and hands the rest to `emit`.
  mutating func finish() throws {
    let sum = checksum.finish(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
    let length = UInt64(count)
    for value in [length, sum] { try append(value) }
    // The trailer may have filled the buffer (and been handed over): what is left goes now.
    if used > 0 {
      try emit(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
      used = 0
    }
  }
}
