import Foundation

/// The hot loops of Parquet decoding over a page's bytes: unpacking bit-packed values
/// (dictionary indices, levels) and loading `PLAIN` fixed-width numbers, with word loads
/// instead of one byte at a time; and looking dictionary indices up, without a bounds check
/// per index.
///
/// Invariants: every read lies inside `bytes` — the range a call decodes is checked by a
/// precondition against `bytes.count` (callers check it first and throw), and a word load is
/// used only where all 8 of its bytes lie inside `bytes`, the last values being read byte by
/// byte; every write goes to the elements appended to `output` (initialized before they are
/// overwritten, or to a new array's uninitialized elements, each initialized once, its count
/// set to those initialized). Values are little-endian in the file and converted with
/// `littleEndian`. A lookup reads the dictionary only after one pass found every index below
/// its count, or at an index clamped to its last entry (the largest index checked after). A
/// string compared for the bounds is read only after its range was checked to lie inside
/// `bytes`.
enum UnsafeParquetBytes {
  /// Calls `write(i, value)` for the `count` values of `bitWidth` bits packed from
  /// `raw[start...]`, in order: a word load per value while all 8 of its bytes lie inside
  /// `raw` (a value's word starts at its first byte, `start + index × bitWidth / 8`), then
  /// byte by byte.
  ///
  /// - Precondition (checked by the callers): the `⌈count × bitWidth / 8⌉` bytes from `start`
  ///   lie inside `raw`; `bitWidth` is 1…32.
  @inline(__always)
  static func unpack(
    _ count: Int, bitWidth: Int, _ raw: UnsafeRawBufferPointer, at start: Int, _ write: (Int, UInt32) -> Void
  ) {
    let mask: UInt64 = (1 << UInt64(bitWidth)) - 1
    let size = raw.count
    let wordValues = size - start >= 8 ? min(count, ((size - start - 8) * 8) / bitWidth + 1) : 0
    // Eight values at a time: they fill `bitWidth` whole bytes, so each group starts on a byte
    // and its values' words are independent loads (no running bit position between them).
    // The common widths of dictionary indices each get a loop of their own, with the shifts
    // and offsets folded to constants.
    let groups = wordValues / 8
    switch bitWidth {
    case 1: unpackGroups(groups, bitWidth: 1, raw, at: start, write)
    case 2: unpackGroups(groups, bitWidth: 2, raw, at: start, write)
    case 3: unpackGroups(groups, bitWidth: 3, raw, at: start, write)
    case 4: unpackGroups(groups, bitWidth: 4, raw, at: start, write)
    case 5: unpackGroups(groups, bitWidth: 5, raw, at: start, write)
    case 6: unpackGroups(groups, bitWidth: 6, raw, at: start, write)
    case 7: unpackGroups(groups, bitWidth: 7, raw, at: start, write)
    case 8: unpackGroups(groups, bitWidth: 8, raw, at: start, write)
    case 9: unpackGroups(groups, bitWidth: 9, raw, at: start, write)
    case 10: unpackGroups(groups, bitWidth: 10, raw, at: start, write)
    case 11: unpackGroups(groups, bitWidth: 11, raw, at: start, write)
    case 12: unpackGroups(groups, bitWidth: 12, raw, at: start, write)
    default: unpackGroups(groups, bitWidth: bitWidth, raw, at: start, write)
    }
    var bit = groups * 8 * bitWidth
    for index in groups * 8..<wordValues {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + bit >> 3, as: UInt64.self))
      write(index, UInt32(truncatingIfNeeded: (word >> UInt64(bit & 7)) & mask))
      bit += bitWidth
    }
    for index in wordValues..<count {
      let at = start + bit >> 3
      var word: UInt64 = 0
      for byte in 0..<min(8, size - at) { word |= UInt64(raw[at + byte]) << UInt64(8 * byte) }
      write(index, UInt32(truncatingIfNeeded: (word >> UInt64(bit & 7)) & mask))
      bit += bitWidth
    }
  }

  /// Calls `write(i, value)` for the first `groups × 8` values of `unpack` (each group's eight
  /// words loaded in place).
  ///
  /// - Precondition (the caller's): every value's 8-byte word lies inside `raw`.
  @inline(__always)
  private static func unpackGroups(
    _ groups: Int, bitWidth: Int, _ raw: UnsafeRawBufferPointer, at start: Int, _ write: (Int, UInt32) -> Void
  ) {
    let mask: UInt64 = (1 << UInt64(bitWidth)) - 1
    var groupStart = start
    for group in 0..<groups {
      for value in 0..<8 {
        let bit = value &* bitWidth
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: groupStart &+ bit >> 3, as: UInt64.self))
        write(group &* 8 &+ value, UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask))
      }
      groupStart &+= bitWidth
    }
  }

  /// Appends `count` `PLAIN` values of `width` bytes (4: `INT32` sign-extended, 8: `INT64`)
  /// from `bytes[start...]`.
  ///
  /// - Precondition: `width` is 4 or 8 and the `count × width` bytes from `start` lie inside `bytes`.
  static func appendIntegers(_ count: Int, width: Int, from bytes: [UInt8], at start: Int, to output: inout [Int64]) {
    precondition(
      (width == 4 || width == 8) && count >= 0 && start >= 0 && (bytes.count - start) / width >= count,
      "PLAIN values past their bytes")
    guard count > 0 else { return }
    let piece = [Int64](unsafeUninitializedCapacity: count) { target, initialized in
      let base = target.baseAddress!
      bytes.withUnsafeBytes { raw in
        if width == 8 {
          for index in 0..<count {
            (base + index).initialize(
              to: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8 * index, as: Int64.self)))
          }
        } else {
          for index in 0..<count {
            (base + index).initialize(
              to: Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * index, as: Int32.self))))
          }
        }
      }
      initialized = count
    }
    append(piece, to: &output)
  }

  /// Appends `count` `PLAIN` values of `width` bytes (4: `FLOAT`, 8: `DOUBLE`) from
  /// `bytes[start...]` as doubles.
  ///
  /// - Precondition: `width` is 4 or 8 and the `count × width` bytes from `start` lie inside `bytes`.
  static func appendDoubles(_ count: Int, width: Int, from bytes: [UInt8], at start: Int, to output: inout [Double]) {
    precondition(
      (width == 4 || width == 8) && count >= 0 && start >= 0 && (bytes.count - start) / width >= count,
      "PLAIN values past their bytes")
    guard count > 0 else { return }
    let piece = [Double](unsafeUninitializedCapacity: count) { target, initialized in
      let base = target.baseAddress!
      bytes.withUnsafeBytes { raw in
        if width == 8 {
          for index in 0..<count {
            let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8 * index, as: UInt64.self))
            (base + index).initialize(to: Double(bitPattern: bits))
          }
        } else {
          for index in 0..<count {
            let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * index, as: UInt32.self))
            (base + index).initialize(to: Double(Float(bitPattern: bits)))
          }
        }
      }
      initialized = count
    }
    append(piece, to: &output)
  }

  /// Appends `piece` to `output`: a first page's values taken as they are (no copy), unless
  /// room was reserved for the pages after it.
  static func append<T>(_ piece: [T], to output: inout [T]) {
    if output.isEmpty, output.capacity <= piece.count { output = piece } else { output += piece }
  }

  /// The largest of `indices` (0 for none): a loop the compiler vectorizes.
  static func largest(_ indices: ArraySlice<UInt32>) -> UInt32 {
    indices.withUnsafeBufferPointer { indices in
      var largest: UInt32 = 0
      for index in indices { largest = max(largest, index) }
      return largest
    }
  }

  /// Appends `dictionary[index]` for each of `indices`; `false`, appending nothing, when an
  /// index lies past the dictionary.
  static func appendLookingUp<T>(_ indices: [UInt32], in dictionary: [T], to output: inout [T]) -> Bool {
    guard indices.isEmpty || Int(largest(indices[...])) < dictionary.count else { return false }
    guard !indices.isEmpty else { return true }
    let first = output.count
    output.reserveCapacity(first + indices.count)
    dictionary.withUnsafeBufferPointer { dictionary in
      indices.withUnsafeBufferPointer { indices in
        // Appended through a buffer of exactly the new elements, each initialized once.
        let appended = [T](unsafeUninitializedCapacity: indices.count) { target, initialized in
          for (position, index) in indices.enumerated() {
            (target.baseAddress! + position).initialize(to: dictionary[Int(index)])
          }
          initialized = indices.count
        }
        output.append(contentsOf: appended)
      }
    }
    return true
  }

  /// The byte ranges of the least and the greatest of the strings `bytes[offsets[i]..<offsets[i + 1]]`
  /// for the `entries` that `includes`, by their bytes compared unsigned (`memcmp`, then the
  /// shorter first); `nil` when none is included. Ties keep the first.
  ///
  /// - Precondition: each included entry's range lies inside `bytes` (checked as it is read).
  static func bounds(
    of bytes: [UInt8], offsets: [Int], entries: Range<Int>, includes: (Int) -> Bool
  ) -> (low: Range<Int>, high: Range<Int>)? {
    precondition(
      entries.isEmpty || (entries.lowerBound >= 0 && entries.upperBound < offsets.count), "entries past the offsets")
    return bytes.withUnsafeBufferPointer { buffer -> (low: Range<Int>, high: Range<Int>)? in
      let size = buffer.count
      func precedes(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
        // Bytes to compare only where both ranges hold some, so inside a non-empty buffer.
        let shared = Swift.min(left.count, right.count)
        let base = buffer.baseAddress
        let order = shared == 0 ? 0 : memcmp(base! + left.lowerBound, base! + right.lowerBound, shared)
        return order < 0 || (order == 0 && left.count < right.count)
      }
      var found: (low: Range<Int>, high: Range<Int>)?
      for entry in entries where includes(entry) {
        let start = offsets[entry], end = offsets[entry + 1]
        precondition(start >= 0 && start <= end && end <= size, "a string past its bytes")
        let value = start..<end
        guard let (low, high) = found else {
          found = (value, value)
          continue
        }
        if precedes(value, low) { found?.low = value }
        if precedes(high, value) { found?.high = value }
      }
      return found
    }
  }
}
