import Dispatch
import Foundation

/// A floor for W9's whole-table read (`csv_read_only_mb_per_s`): what a hand-written program
/// does to read flights into typed columns when it knows the file — the 19 columns' types (14
/// integer, 4 short strings encoded as codes, 1 text), no quotes, no carriage returns, every
/// record 19 fields wide, `NA` the only null — so it checks none of it: one scalar loop per
/// thread over its share of the records, a byte at a time, digits into integers, short strings
/// through a direct-mapped table of codes in front of a dictionary, the text's bytes
/// copied. Each thread reads its share of the file (`pread`) and writes fresh columns, as the
/// reader does.
///
/// It is not `readCSV`'s equal (no quoting, no type inference, no width or null-token checks, no
/// error to report): it shows what a plain scalar loop reaches on a machine, beside the reader
/// and its target (W9's `csv_read_floor_mb_per_s`; `flow-bench W9 --read-loop N --read-floor`).
///
/// Invariants (it reads only the file `W9Flights` writes): every record ends with a line feed
/// and is shorter than the 4 KB slack read past a share's end, so every byte the loop reads lies
/// in the share's buffer (followed by 8 line feeds put there, which also cover a string cell's
/// word load); a share of `n` bytes holds fewer than `n / 48 + 64` records (the loop stops
/// there) and each record's text is 19 bytes, within the 24 per row allocated; each thread
/// writes its own share's columns and its own slot of the record counts.
enum UnsafeW9WholeFloor {
  /// The columns' kinds in file order: 0 integer, 1 short string (codes), 2 text.
  static let kinds: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 2]

  /// Reads the flights file at `path` on `threads` threads: the records read (a checksum).
  static func read(path: String, threads: Int) throws -> Int {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw CocoaError(.fileReadUnknown) }
    let size = Int(status.st_size)
    let rows = Counts(pointer: .allocate(capacity: threads))
    defer { rows.pointer.deallocate() }
    rows.pointer.initialize(repeating: 0, count: threads)
    DispatchQueue.concurrentPerform(iterations: threads) { part in
      rows.pointer[part] = readShare(descriptor, size: size, part: part, of: threads)
    }
    return UnsafeBufferPointer(start: rows.pointer, count: threads).reduce(0, +)
  }

  /// The records that start in share `part` of `parts` of the file (the first share starts
  /// after the header), parsed into fresh columns that are then freed.
  private static func readShare(_ descriptor: Int32, size: Int, part: Int, of parts: Int) -> Int {
    let from = size * part / parts, to = size * (part + 1) / parts
    // One byte before the share (to see whether a record starts at `from`) and room for the
    // last record's end; the file's records are far shorter than the slack.
    let first = Swift.max(0, from - 1), slack = 4_096
    let length = Swift.min(size, to + slack) - first
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: length + 8)
    defer { bytes.deallocate() }
    guard pread(descriptor, bytes, length, off_t(first)) == length else { return 0 }
    (bytes + length).initialize(repeating: UInt8(ascii: "\n"), count: 8)
    // The first record: after the header in share 0, else after the first line feed at or
    // after `from - 1`.
    var i = 0
    while bytes[i] != UInt8(ascii: "\n") { i += 1 }
    i += 1
    let end = to - first
    let capacity = (to - from) / 48 + 64
    let integers = (0..<14).map { _ in UnsafeMutablePointer<Int64>.allocate(capacity: capacity) }
    let nulls = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 14)
    let codes = (0..<4).map { _ in UnsafeMutablePointer<UInt32>.allocate(capacity: capacity) }
    let text = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 24)
    let offsets = UnsafeMutablePointer<Int32>.allocate(capacity: capacity + 1)
    // A direct-mapped table of 1,024 codes per string column in front of its dictionary.
    let slots = 1_024
    let cacheKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * slots)
    cacheKeys.initialize(repeating: 0, count: 4 * slots)
    let cacheCodes = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * slots)
    defer {
      integers.forEach { $0.deallocate() }
      codes.forEach { $0.deallocate() }
      nulls.deallocate()
      text.deallocate()
      cacheKeys.deallocate()
      cacheCodes.deallocate()
      offsets.deallocate()
    }
    let kinds = Self.kinds  // (a local: the loop does not go through the global's accessor)
    var dictionaries = [[UInt64: UInt32]](repeating: [:], count: 4)
    var row = 0, textBytes = 0
    offsets[0] = 0
    while i < end && row < capacity {
      var integer = 0, code = 0
      for column in 0..<19 {
        switch kinds[column] {
        case 0:
          var value: Int64 = 0
          var null: UInt8 = 0
          if bytes[i] == UInt8(ascii: "N") {
            null = 1
            i += 3
          } else {
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while true {
              let digit = bytes[i] &- 0x30
              if digit >= 10 { break }
              value = value &* 10 &+ Int64(digit)
              i += 1
            }
            if negative { value = -value }
            i += 1
          }
          integers[integer][row] = value
          nulls[integer * capacity + row] = null
          integer += 1
        case 1:
          let start = i
          while bytes[i] != UInt8(ascii: ",") { i += 1 }
          // The cell's (at most 7) bytes from one word load, its length in the top byte.
          let count = Swift.min(i - start, 7)
          let word = UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt64.self)
          let key = word & ((1 << (UInt64(count) * 8)) - 1) | UInt64(count) << 56
          i += 1
          let slot = code * slots + Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)
          let found: UInt32
          if cacheKeys[slot] == key {
            found = cacheCodes[slot]
          } else {
            if let known = dictionaries[code][key] {
              found = known
            } else {
              found = UInt32(dictionaries[code].count)
              dictionaries[code][key] = found
            }
            cacheKeys[slot] = key
            cacheCodes[slot] = found
          }
          codes[code][row] = found
          code += 1
        default:
          let start = i
          while bytes[i] != UInt8(ascii: "\n") { i += 1 }
          (text + textBytes).update(from: bytes + start, count: i - start)
          textBytes += i - start
          offsets[row + 1] = Int32(truncatingIfNeeded: textBytes)
          i += 1
        }
      }
      row += 1
    }
    return row
  }

  /// The threads' record counts, slot `part` written by thread `part` alone.
  private struct Counts: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
  }
}
