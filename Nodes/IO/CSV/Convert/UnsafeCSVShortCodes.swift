import FlowRuntime

/// The dictionary codes of a column's short cells (1 to 7 bytes) seen before, in a small
/// direct-mapped table: a repeated short cell (a carrier, an airport, a flag) costs one word
/// load, a multiply and a compare, instead of the null test and the dictionary's lookup (a call
/// into FlowRuntime per cell).
///
/// Invariants: a slot's key is 0 (empty) or the key of a cell that was not null and that
/// `dictionary.code(of:)` answered with the slot's code. A key is the cell's bytes with its
/// length in the top byte, so two cells have the same key only if their bytes are equal; the
/// null test depends on a (never quoted) cell's bytes only, and a dictionary's codes never
/// change, so a hit is the answer the null test and the lookup would give. The table belongs to
/// one dictionary (its parser empties it when it makes a new one). The word at a cell's start
/// is read only in a run whose every cell has 8 readable bytes from its start
/// (`UnsafeCSVRecordRun.wordReadable`); elsewhere no cell has a key, and every one takes the
/// null test and the lookup. `appendCodes` writes record `r`'s code at `r - record` of a scratch
/// of the run's remaining records (so inside it), and appends only the written prefix; `slot`
/// is below `slots` (the top 7 bits of a product), and the table's buffer pointer lives only
/// inside the call.
struct UnsafeCSVShortCodes {
  /// A slot: a cell's key (0: empty) and its code.
  private struct Slot {
    var key: UInt64 = 0
    var code: UInt32 = 0
  }
  private var table: [Slot] = []

  /// Slots in the table (a power of two): room for a few dozen distinct short cells with few
  /// collisions.
  static let slots = 128

  /// The key of the `length` bytes at `start` (the low bytes of the word there), or 0 outside
  /// 1...7 bytes.
  @inline(__always)
  static func key(_ raw: UnsafeRawPointer, _ start: Int, _ length: Int) -> UInt64 {
    guard UInt(bitPattern: length &- 1) < 7 else { return 0 }
    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    return word & ((1 &<< UInt64(length &* 8)) &- 1) | UInt64(length) &<< 56
  }

  @inline(__always)
  static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 57) }

  /// Appends to `target` the codes of field `field` of `run`'s records from `record` on (`raw`:
  /// the buffer's base if every cell of the run is word-readable, else `nil`: no table), while
  /// a cell is not null and `dictionary` has a code for it: the record it stopped at (or
  /// `run.count`).
  mutating func appendCodes(
    _ run: UnsafeCSVRecordRun, field: Int, from record: Int, readable raw: UnsafeRawPointer?,
    nulls: CSVNullTest, _ scanner: UnsafeCSVScanner,
    dictionary: inout StringDictionaryBuilder, into target: inout [UInt32]
  ) -> Int {
    if table.isEmpty { table = [Slot](repeating: Slot(), count: Self.slots) }
    let wanted = run.count &- record
    guard wanted > 0 else { return record }
    // The run's codes go to a scratch of the run's length, appended to `target` once: a run
    // has at most a window's records, and an append per cell costs a uniqueness and a
    // capacity test.
    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: wanted) { scratch in
      table.withUnsafeMutableBufferPointer { table in
        let stopped = run.cells(field, from: record) { row, start, end in
          let key = raw.map { Self.key($0, start, end &- start) } ?? 0
          let slot = Self.slot(key)
          let at = row &- record
          if key != 0 && table[slot].key == key {
            scratch[at] = table[slot].code
            return true
          }
          // (A quoted cell's key holds its quotes, which no key in the table does: quoted cells
          // are looked up by the caller, between their quotes.)
          guard !run.isQuoted(start, end),
            !nulls.isNull(CSVField(start: start, end: end, quoted: false, escaped: false), scanner),
            let code = dictionary.code(
              of: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: scanner.buffer[start..<end])))
          else { return false }
          if key != 0 { table[slot] = Slot(key: key, code: code) }
          scratch[at] = code
          return true
        }
        target.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<(stopped &- record)]))
        return stopped
      }
    }
  }
}
