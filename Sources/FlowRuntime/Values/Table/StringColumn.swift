/// The strings of a column, in one of two layouts behind one API:
///
/// - **flat**: one contiguous UTF-8 buffer and `count + 1` offsets into it (the Arrow layout),
///   so a million strings are two arrays rather than a million objects;
/// - **dictionary**: the column's distinct strings once (a flat dictionary, in order of first
///   appearance when the CSV reader built it) and one `UInt32` code per row (Arrow's dictionary
///   encoding). `readCSV` encodes low-cardinality columns this way, so grouping, joining,
///   sorting and comparing with a constant work on small integers (see
///   `StringColumn+Dictionary.swift`).
///
/// Both layouts hold the same strings and compare, hash and print alike. `bytes` and `offsets`
/// give the flat layout: for a dictionary column they are materialized on each access
/// (O(rows + bytes)); `utf8(_:)`, `subscript`, `compare` and `gathering` work on either
/// layout without that cost.
///
/// Invariant: `storedOffsets` starts at 0, never decreases and ends at `storedBytes.count`;
/// each string's bytes are valid UTF-8. With `storedCodes`, the stored strings are distinct
/// and every code is below their count.
public struct StringColumn: Sendable {
  /// The strings' bytes (flat), or the dictionary's.
  @usableFromInline var storedBytes: [UInt8] = []
  /// The strings' offsets (flat), or the dictionary's.
  @usableFromInline var storedOffsets: [Int] = [0]
  /// The dictionary entry of each row, or `nil` for the flat layout.
  @usableFromInline var storedCodes: [UInt32]?

  /// The UTF-8 bytes of every string, back to back. A dictionary-encoded column materializes
  /// them on each access (O(rows + bytes)): read `utf8(_:)` per row instead.
  public var bytes: [UInt8] { storedCodes == nil ? storedBytes : flattened().storedBytes }
  /// Where each string starts in `bytes`; string `i` is `bytes[offsets[i]..<offsets[i + 1]]`.
  /// A dictionary-encoded column materializes them on each access (O(rows)).
  public var offsets: [Int] { storedCodes == nil ? storedOffsets : flattened().storedOffsets }

  /// An empty column.
  public init() {}

  /// A column holding `strings`.
  public init(_ strings: some Sequence<String>) {
    for string in strings { append(string) }
  }

  /// A column over `bytes` cut at `offsets` (a string function that keeps the layout, such as
  /// ASCII case mapping, builds its result without copying per string).
  ///
  /// - Precondition: `offsets` starts at 0, never decreases and ends at `bytes.count`, and each
  ///   string is valid UTF-8 (checked: the ends; the caller guarantees the rest).
  public init(validUTF8 bytes: [UInt8], offsets: [Int]) {
    precondition(offsets.first == 0 && offsets.last == bytes.count, "offsets must span the bytes")
    storedBytes = bytes
    storedOffsets = offsets
  }

  /// The number of strings.
  @inlinable public var count: Int { storedCodes?.count ?? storedOffsets.count - 1 }

  /// String `index`.
  public subscript(index: Int) -> String {
    String(decoding: utf8(index), as: UTF8.self)
  }

  /// The UTF-8 bytes of string `index` (either layout, nothing materialized).
  @inlinable public func utf8(_ index: Int) -> ArraySlice<UInt8> {
    let entry = if let codes = storedCodes { Int(codes[index]) } else { index }
    return storedBytes[storedOffsets[entry]..<storedOffsets[entry + 1]]
  }

  /// Compares strings `a` of this column and `b` of `other` by Unicode scalar values (the
  /// order of their UTF-8 bytes): negative, zero or positive.
  public func compare(_ a: Int, with other: StringColumn, _ b: Int) -> Int {
    let left = utf8(a), right = other.utf8(b)
    var i = left.startIndex, j = right.startIndex
    while i < left.endIndex && j < right.endIndex {
      let x = left[i], y = right[j]
      if x != y { return x < y ? -1 : 1 }
      i += 1
      j += 1
    }
    return left.count - right.count
  }

  /// Appends a string (a dictionary-encoded column becomes flat first: O(rows + bytes) once).
  public mutating func append(_ string: String) {
    makeFlat()
    storedBytes.append(contentsOf: string.utf8)
    storedOffsets.append(storedBytes.count)
  }

  /// Appends a string given as UTF-8 bytes (the caller guarantees they are valid UTF-8; a
  /// dictionary-encoded column becomes flat first).
  @inlinable public mutating func append(utf8: some Collection<UInt8>) {
    if storedCodes != nil { makeFlat() }
    storedBytes.append(contentsOf: utf8)
    storedOffsets.append(storedBytes.count)
  }

  /// Appends `other`'s strings (one copy of its bytes, its offsets shifted; either column in
  /// the dictionary layout is made flat: `StringColumn.concatenating` keeps dictionaries).
  public mutating func append(contentsOf other: StringColumn) {
    makeFlat()
    let other = other.flattened()
    let base = storedBytes.count
    storedBytes.append(contentsOf: other.storedBytes)
    storedOffsets.reserveCapacity(storedOffsets.count + other.count)
    for offset in other.storedOffsets.dropFirst() { storedOffsets.append(offset &+ base) }
  }

  /// Appends the empty string (the placeholder of a null cell).
  @inlinable public mutating func appendEmpty() {
    if storedCodes != nil { makeFlat() }
    storedOffsets.append(storedBytes.count)
  }

  /// The strings at `rows`, in that order; a row of -1 gives the empty string. A dictionary
  /// column gathers its codes (the result shares the dictionary); a flat one copies runs of
  /// rows whose bytes are adjacent (a filter's increasing rows) at once.
  ///
  /// - Complexity: O(`rows.count` + the bytes copied).
  public func gathering(_ rows: [Int32]) -> StringColumn {
    if let codes = storedCodes { return gatheringCodes(codes, rows) }
    var offsets: [Int] = []
    offsets.reserveCapacity(rows.count + 1)
    offsets.append(0)
    var total = 0
    for row in rows {
      if row >= 0 { total += storedOffsets[Int(row) + 1] - storedOffsets[Int(row)] }
      offsets.append(total)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(total)
    var runStart = 0, runEnd = 0
    for row in rows where row >= 0 {
      let start = storedOffsets[Int(row)], end = storedOffsets[Int(row) + 1]
      if start == runEnd {
        runEnd = end
        continue
      }
      if runEnd > runStart { bytes.append(contentsOf: storedBytes[runStart..<runEnd]) }
      runStart = start
      runEnd = end
    }
    if runEnd > runStart { bytes.append(contentsOf: storedBytes[runStart..<runEnd]) }
    var result = StringColumn()
    result.storedBytes = bytes
    result.storedOffsets = offsets
    return result
  }

  /// Reserves room for `strings` strings of `bytes` bytes in all (flat layout).
  public mutating func reserveCapacity(strings: Int, bytes byteCount: Int) {
    makeFlat()
    storedOffsets.reserveCapacity(strings + 1)
    storedBytes.reserveCapacity(byteCount)
  }
}
