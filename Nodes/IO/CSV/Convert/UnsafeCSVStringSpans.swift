// Invariants: `storage` (owned by `owner`, freed when the last copy of the spans goes) holds
// `capacity` 8-byte slots, the first `count <= capacity` written: slot `i` is row `i`'s span,
// its start in the chunk in the low 32 bits, its raw length in bits 32–62 and bit 63 set if it
// holds `""` escapes (a null is 0: an empty span). The chunk parser writes at most `capacity`
// rows (its `limit`, the chunk's counted records), and the chunk is under 2^31 bytes, so every
// span fits. `base` is the chunk's first byte inside the block and `readable` bytes from it
// are the block's: valid until the block is consumed, which is after
// `UnsafeCSVStringColumn.commit` read the spans. Written only by the thread parsing the
// chunk; read-only from then on (shared with the commit's threads).

/// One chunk's cells of a flat string column written in place (`UnsafeCSVStringColumn`): where
/// each cell lies in the block (its span), not its bytes. Once the block is parsed, every
/// chunk's rows and string bytes are known, so the commit copies each cell once, from the
/// block straight to its place in the column — no piece, no merge copy, no dictionary tried.
struct UnsafeCSVStringSpans: @unchecked Sendable {
  /// Frees the span storage with the last copy of the spans.
  final class Owner: @unchecked Sendable {
    let storage: UnsafeMutablePointer<UInt64>
    init(_ capacity: Int) { storage = .allocate(capacity: Swift.max(1, capacity)) }
    deinit { storage.deallocate() }
  }

  private let owner: Owner
  let storage: UnsafeMutablePointer<UInt64>
  let capacity: Int
  let base: UnsafePointer<UInt8>
  let readable: Int
  /// Rows written.
  private(set) var count = 0
  /// The bytes of the strings (escapes collapsed).
  private(set) var bytes = 0
  /// This chunk's null rows (relative to its first row, increasing).
  private(set) var nullRows: [Int32] = []

  /// The largest chunk whose spans fit (start and length in 31 bits).
  static let mostChunkBytes = 1 << 31 - 1

  /// Spans for at most `capacity` rows of the chunk `chunk`, `readable` bytes of the block
  /// lying from its start.
  init(chunk: UnsafeBufferPointer<UInt8>, readable: Int, capacity: Int) {
    precondition(chunk.count <= Self.mostChunkBytes && readable >= chunk.count && capacity >= 0, "a chunk's spans")
    owner = Owner(capacity)
    storage = owner.storage
    self.capacity = capacity
    base = chunk.baseAddress ?? UnsafePointer(owner.storage.withMemoryRebound(to: UInt8.self, capacity: 1) { $0 })
    self.readable = chunk.baseAddress == nil ? 0 : readable
  }

  @inline(__always)
  mutating func appendNull() {
    storage[count] = 0
    nullRows.append(Int32(truncatingIfNeeded: count))
    count &+= 1
  }

  @inline(__always)
  mutating func append(_ field: CSVField) {
    let length = field.end &- field.start
    var span = UInt64(truncatingIfNeeded: field.start) | UInt64(truncatingIfNeeded: length) &<< 32
    if field.escaped {
      span |= 1 &<< 63
      bytes &+= length &- Self.quotes(base, field) / 2
    } else {
      bytes &+= length
    }
    storage[count] = span
    count &+= 1
  }

  /// Records field `field` of every record of `run` (nulls as `nulls` finds them on `scanner`),
  /// with the byte count and the target in locals: a quoted cell as the span between its quotes
  /// (flagged, its escapes counted, if it holds `""`).
  mutating func appendColumn(_ run: UnsafeCSVRecordRun, field: Int, nulls: CSVNullTest, _ scanner: UnsafeCSVScanner) {
    let target = storage + count
    var total = bytes
    let base = self.base
    _ = run.cells(field, from: 0) { record, start, end in
      if run.isQuoted(start, end) {
        let content = CSVField(start: start &+ 1, end: end &- 1, quoted: true, escaped: run.isEscaped(record, field))
        let length = content.end &- content.start
        var span = UInt64(truncatingIfNeeded: content.start) | UInt64(truncatingIfNeeded: length) &<< 32
        if content.escaped {
          span |= 1 &<< 63
          total &+= length &- Self.quotes(base, content) / 2
        } else {
          total &+= length
        }
        target[record] = span
      } else if nulls.isNull(CSVField(start: start, end: end, quoted: false, escaped: false), scanner) {
        target[record] = 0
        nullRows.append(Int32(truncatingIfNeeded: count &+ record))
      } else {
        target[record] = UInt64(truncatingIfNeeded: start) | UInt64(truncatingIfNeeded: end &- start) &<< 32
        total &+= end &- start
      }
      return true
    }
    bytes = total
    count &+= run.count
  }

  /// The quotes inside an escaped field (each `""` is one byte of its content).
  private static func quotes(_ base: UnsafePointer<UInt8>, _ field: CSVField) -> Int {
    var total = 0
    for index in field.start..<field.end where base[index] == UnsafeCSVScanner.quote { total &+= 1 }
    return total
  }

  /// Writes the strings to `target` (this chunk's bytes in the column, `bytes` long) and each
  /// row's end offset to `ends[0..<count]`, `first` being the column offset of `target`.
  func write(to target: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<Int>, first: Int) {
    let quote = UnsafeCSVScanner.quote
    let raw = UnsafeRawPointer(base), out = UnsafeMutableRawPointer(target)
    var at = 0
    for row in 0..<count {
      let span = storage[row]
      let start = Int(truncatingIfNeeded: span & 0xFFFF_FFFF)
      let length = Int(truncatingIfNeeded: (span &>> 32) & 0x7FFF_FFFF)
      if span &>> 63 != 0 {
        var index = start
        let end = start &+ length
        while index < end {
          let byte = base[index]
          target[at] = byte
          at &+= 1
          index &+= byte == quote ? 2 : 1
        }
      } else if length <= 16 && start &+ 16 <= readable && at &+ 16 <= bytes {
        // Two words, whatever the length: the bytes past it are the next strings' (of this
        // chunk: `at + 16 <= bytes`) and are written over by them.
        out.storeBytes(of: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self), toByteOffset: at, as: UInt64.self)
        out.storeBytes(
          of: raw.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self), toByteOffset: at &+ 8, as: UInt64.self)
        at &+= length
      } else {
        (target + at).update(from: base + start, count: length)
        at &+= length
      }
      ends[row] = first &+ at
    }
    precondition(at == bytes, "a chunk's string bytes")
  }
}
