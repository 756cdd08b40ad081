/// The non-null values of a column (a chunk's, or a dictionary's), by physical type: integers
/// of `INT32`/`INT64` (sign-extended) and `INT96` (nanoseconds since the epoch), floats as
/// doubles, booleans, and byte arrays as bytes cut at offsets.
///
/// Invariant: only the storage of the column's physical type is used; `offsets` starts at 0,
/// never decreases and ends at `bytes.count`.
struct ParquetValues: Sendable {
  /// The physical type (Thrift `Type`).
  let type: Int
  /// `FIXED_LEN_BYTE_ARRAY`'s length.
  let typeLength: Int
  var integers: [Int64] = []
  var doubles: [Double] = []
  var bools: [Bool] = []
  var bytes: [UInt8] = []
  var offsets: [Int] = [0]

  init(type: Int, typeLength: Int) {
    self.type = type
    self.typeLength = typeLength
  }

  /// The number of values.
  var count: Int {
    switch type {
    case 0: bools.count
    case 1, 2, 3: integers.count
    case 4, 5: doubles.count
    default: offsets.count - 1
    }
  }

  /// Appends value `index` of `dictionary` (of the same type) for each of `indices`, with one
  /// switch on the type for all of them.
  ///
  /// - Precondition: every index is below `dictionary.count` (the caller checks first).
  mutating func append(gathering indices: [UInt32], of dictionary: ParquetValues) {
    // Checked by the lookup itself as well (`UnsafeParquetBytes.appendLookingUp`).
    switch type {
    case 0:
      precondition(UnsafeParquetBytes.appendLookingUp(indices, in: dictionary.bools, to: &bools), Self.pastDictionary)
    case 1, 2, 3:
      precondition(
        UnsafeParquetBytes.appendLookingUp(indices, in: dictionary.integers, to: &integers), Self.pastDictionary)
    case 4, 5:
      precondition(
        UnsafeParquetBytes.appendLookingUp(indices, in: dictionary.doubles, to: &doubles), Self.pastDictionary)
    default:
      offsets.reserveCapacity(offsets.count + indices.count)
      for index in indices {
        bytes.append(contentsOf: dictionary.bytes[dictionary.offsets[Int(index)]..<dictionary.offsets[Int(index) + 1]])
        offsets.append(bytes.count)
      }
    }
  }

  /// Appends the values of `dictionary` (of the same type) at the next `count` indices of
  /// `runs`, decoded straight into the values for fixed-width types.
  ///
  /// - Throws: `ParquetError` if the runs end early or an index lies past the dictionary.
  mutating func append(_ count: Int, lookingUp runs: inout ParquetRLEDecoder, in dictionary: ParquetValues)
    throws(ParquetError)
  {
    switch type {
    case 0: try UnsafeParquetRuns.appendLookingUp(count, of: &runs, in: dictionary.bools, to: &bools)
    case 1, 2, 3: try UnsafeParquetRuns.appendLookingUp(count, of: &runs, in: dictionary.integers, to: &integers)
    case 4, 5: try UnsafeParquetRuns.appendLookingUp(count, of: &runs, in: dictionary.doubles, to: &doubles)
    default:
      var indices: [UInt32] = []
      try runs.decode(count, into: &indices)
      try Self.check(indices[...], below: dictionary.count)
      append(gathering: indices, of: dictionary)
    }
  }

  /// Checks that every index lies below a dictionary's `size` values.
  ///
  /// - Throws: `ParquetError` naming the first that does not.
  static func check(_ indices: ArraySlice<UInt32>, below size: Int) throws(ParquetError) {
    guard Int(UnsafeParquetBytes.largest(indices)) >= size else { return }
    let index = indices.first { Int($0) >= size } ?? 0
    throw ParquetError("a dictionary index \(index) past the dictionary's \(size) values")
  }

  private static let pastDictionary = "Internal inconsistency: a dictionary index past the dictionary"

  /// Room for `count` more values (of the type's storage) and `byteCount` more bytes.
  mutating func reserveCapacity(_ count: Int, bytes byteCount: Int) {
    switch type {
    case 0: bools.reserveCapacity(bools.count + count)
    case 1, 2, 3: integers.reserveCapacity(integers.count + count)
    case 4, 5: doubles.reserveCapacity(doubles.count + count)
    default:
      offsets.reserveCapacity(offsets.count + count)
      bytes.reserveCapacity(bytes.count + byteCount)
    }
  }

  /// Appends every value of `other` (the next chunk of the same column).
  mutating func append(contentsOf other: ParquetValues) {
    integers += other.integers
    doubles += other.doubles
    bools += other.bools
    let base = bytes.count
    bytes += other.bytes
    offsets += other.offsets.dropFirst().map { $0 + base }
  }

  /// Appends one byte array.
  mutating func append(bytes value: ArraySlice<UInt8>) {
    bytes += value
    offsets.append(bytes.count)
  }
}
