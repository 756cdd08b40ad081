/// The dictionary layout of `StringColumn` (see the type): package API for the kernels that
/// work on codes instead of bytes (grouping, joining, sorting, comparing with a constant) and
/// for the readers that build it.
extension StringColumn {
  /// The most entries a dictionary built by `dictionaryEncoded` or kept by `concatenating` holds.
  package static let maximumDictionaryEntries = 1 << 16

  /// A dictionary column: row `i` is `dictionary[codes[i]]`.
  ///
  /// - Precondition: `dictionary` is flat, its strings are distinct, every code is below its
  ///   count (checked with `FLOW_INTERNAL_CHECKS`; the count always).
  package init(dictionary: StringColumn, codes: [UInt32]) {
    precondition(dictionary.storedCodes == nil, "a dictionary is flat")
    storedBytes = dictionary.storedBytes
    storedOffsets = dictionary.storedOffsets
    storedCodes = codes
    #if FLOW_INTERNAL_CHECKS
    _checkInvariants()
    #endif
  }

  /// Whether the column is in the dictionary layout.
  @inlinable package var isDictionaryEncoded: Bool { storedCodes != nil }

  /// The distinct strings of a dictionary column (flat, sharing its storage), or `nil`.
  package var dictionary: StringColumn? {
    guard storedCodes != nil else { return nil }
    var entries = StringColumn()
    entries.storedBytes = storedBytes
    entries.storedOffsets = storedOffsets
    return entries
  }

  /// The dictionary entry of each row, or `nil` for a flat column.
  @inlinable package var codes: [UInt32]? { storedCodes }

  /// The bytes the column's arrays hold (strings or dictionary, offsets, codes): what a memory
  /// estimate counts.
  package var storageBytes: Int {
    storedBytes.count + storedOffsets.count * MemoryLayout<Int>.stride + (storedCodes?.count ?? 0)
      * MemoryLayout<UInt32>.stride
  }

  /// The bytes of all the strings in the flat layout (without materializing it).
  package var utf8Count: Int {
    guard let codes = storedCodes else { return storedBytes.count }
    var total = 0
    for code in codes { total &+= storedOffsets[Int(code) + 1] &- storedOffsets[Int(code)] }
    return total
  }

  /// The same strings in the flat layout (itself if flat).
  ///
  /// - Complexity: O(rows + bytes) for a dictionary column.
  package func flattened() -> StringColumn {
    guard let codes = storedCodes else { return self }
    var total = 0
    for code in codes { total &+= storedOffsets[Int(code) + 1] &- storedOffsets[Int(code)] }
    var result = StringColumn()
    result.storedBytes.reserveCapacity(total)
    result.storedOffsets.reserveCapacity(codes.count + 1)
    for code in codes {
      result.storedBytes.append(contentsOf: storedBytes[storedOffsets[Int(code)]..<storedOffsets[Int(code) + 1]])
      result.storedOffsets.append(result.storedBytes.count)
    }
    return result
  }

  /// The flat layout's bytes and offsets, materialized once for a dictionary column (for
  /// kernels that need the flat layout, such as string functions; O(rows + bytes) then).
  package var flatLayout: (bytes: [UInt8], offsets: [Int]) {
    let flat = flattened()
    return (flat.storedBytes, flat.storedOffsets)
  }

  /// Makes the column flat in place (nothing if it is).
  @usableFromInline mutating func makeFlat() {
    if storedCodes != nil { self = flattened() }
  }

  /// The same strings in the dictionary layout (entries in order of first appearance), or
  /// `nil` if they have more than `limit` distinct values. A dictionary column is returned as it is.
  package func dictionaryEncoded(limit: Int = maximumDictionaryEntries) -> StringColumn? {
    if storedCodes != nil { return self }
    var builder = StringDictionaryBuilder(limit: limit)
    var codes: [UInt32] = []
    codes.reserveCapacity(count)
    for row in 0..<count {
      guard let code = builder.code(of: utf8(row)) else { return nil }
      codes.append(code)
    }
    return StringColumn(dictionary: builder.entries, codes: codes)
  }

  /// `columns` one after the other. When every one is a dictionary column and their merged
  /// dictionary (entries in order, the first column's first) stays within
  /// `maximumDictionaryEntries`, the result is a dictionary column; otherwise it is flat.
  ///
  /// - Complexity: O(rows + dictionary entries) for dictionaries (O(rows) when they all share
  ///   one), O(rows + bytes) otherwise.
  package static func concatenating(_ columns: [StringColumn]) -> StringColumn {
    guard let first = columns.first else { return StringColumn() }
    if columns.count == 1 { return first }
    if columns.allSatisfy(\.isDictionaryEncoded), let merged = mergingDictionaries(columns) { return merged }
    var result = StringColumn()
    let flat = columns.map { $0.flattened() }
    result.reserveCapacity(
      strings: flat.reduce(0) { $0 + $1.count }, bytes: flat.reduce(0) { $0 + $1.storedBytes.count })
    for column in flat { result.append(contentsOf: column) }
    return result
  }

  /// Dictionary columns concatenated with one merged dictionary, or `nil` past the limit.
  private static func mergingDictionaries(_ columns: [StringColumn]) -> StringColumn? {
    var codes: [UInt32] = []
    codes.reserveCapacity(columns.reduce(0) { $0 + $1.count })
    let first = columns[0]
    if columns.allSatisfy({ $0.storedBytes == first.storedBytes && $0.storedOffsets == first.storedOffsets }) {
      for column in columns { codes.append(contentsOf: column.storedCodes!) }
      return StringColumn(dictionary: first.dictionary!, codes: codes)
    }
    var builder = StringDictionaryBuilder(limit: maximumDictionaryEntries)
    for column in columns {
      let entries = column.storedOffsets.count - 1
      var map = [UInt32](repeating: 0, count: entries)
      for entry in 0..<entries {
        guard
          let code = builder.code(of: column.storedBytes[column.storedOffsets[entry]..<column.storedOffsets[entry + 1]])
        else { return nil }
        map[entry] = code
      }
      for code in column.storedCodes! { codes.append(map[Int(code)]) }
    }
    return StringColumn(dictionary: builder.entries, codes: codes)
  }

  /// The strings at `rows` (each checked to be a row of this column): codes gathered without
  /// a check per row in the dictionary layout.
  func gathering(_ rows: UnsafeRowGather.Rows) -> StringColumn {
    guard let codes = storedCodes else { return gathering(rows.rows) }
    return StringColumn(dictionary: dictionary!, codes: UnsafeRowGather.gathering(codes, rows))
  }

  /// `gathering` for the dictionary layout: codes gathered, -1 mapped to an empty entry.
  func gatheringCodes(_ codes: [UInt32], _ rows: [Int32]) -> StringColumn {
    if let gathered = UnsafeRowGather.gathering(codes, rows) {
      return StringColumn(dictionary: dictionary!, codes: gathered)
    }
    var dictionary = self.dictionary!
    var emptyCode: UInt32 = 0
    if rows.contains(-1) {
      if let entry = (0..<dictionary.count).first(where: {
        dictionary.storedOffsets[$0] == dictionary.storedOffsets[$0 + 1]
      }) {
        emptyCode = UInt32(entry)
      } else {
        emptyCode = UInt32(dictionary.count)
        dictionary.appendEmpty()
      }
    }
    return StringColumn(dictionary: dictionary, codes: rows.map { $0 >= 0 ? codes[Int($0)] : emptyCode })
  }

  #if FLOW_INTERNAL_CHECKS
  /// Checks the dictionary layout's invariants (distinct entries, codes in range).
  func _checkInvariants() {
    guard let codes = storedCodes else { return }
    let entries = storedOffsets.count - 1
    precondition(
      storedOffsets.first == 0 && storedOffsets.last == storedBytes.count, "dictionary offsets must span its bytes")
    precondition(codes.allSatisfy { Int($0) < entries }, "a code past the dictionary")
    if entries <= 4096 {
      var seen = Set<ArraySlice<UInt8>>()
      for entry in 0..<entries {
        precondition(
          seen.insert(storedBytes[storedOffsets[entry]..<storedOffsets[entry + 1]]).inserted,
          "a repeated dictionary entry")
      }
    }
  }
  #endif
}
