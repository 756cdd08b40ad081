import FlowRuntime

/// Text columns straight from Parquet dictionaries: a dictionary-encoded chunk's text is
/// converted once per dictionary entry (a date, a string) and its rows become codes of a
/// dictionary `StringColumn`, instead of one string (or one date formatted) per row.
extension ParquetColumnConversion {
  /// Whether `column` converts `element`'s values to text one value at a time (strings, UTF-8
  /// byte arrays, dates, times, UUIDs), so that a chunk may keep dictionary indices. Not
  /// timestamps, whose fraction digits depend on the whole column.
  static func keepsDictionary(_ element: ParquetSchemaElement) -> Bool {
    switch (element.type, element.annotation) {
    case (1?, .date?), (1?, .time?), (2?, .time?), (6?, nil), (7?, nil), (6?, .string?), (6?, .enumeration?),
      (6?, .json?):
      true
    case (7?, .uuid?): element.typeLength == 16
    default: false
    }
  }

  /// The text column of `chunks` (a row group's each, in order) when every one kept dictionary
  /// codes, each dictionary converts to text, and together they hold at most
  /// `StringColumn.maximumDictionaryEntries` distinct strings; `nil` otherwise (the caller
  /// then converts value by value, which also names the value that fails). One dictionary
  /// serves every row group (each group's entries mapped into it), so the rows' codes are
  /// written once into the column's array, with no merge of per-group columns.
  static func dictionaryColumn(_ element: ParquetSchemaElement, _ chunks: [ParquetChunkReader.Chunk]) -> Column? {
    guard keepsDictionary(element), !chunks.isEmpty, chunks.allSatisfy({ $0.codes != nil }) else { return nil }
    if chunks.count == 1, chunks[0].valid == nil, let codes = chunks[0].codes, element.type == 1,
      case .date? = element.annotation, let days = chunks[0].dictionary?.integers, let text = dates(days)
    {
      // A row group's dates without nulls (the common case): each entry formatted once, the
      // codes as they are.
      return Column(.string(StringColumn(dictionary: text, codes: codes)), validity: Validity(allValid: codes.count))
    }
    // Parquet does not promise distinct dictionary entries; a dictionary column needs them.
    var builder = StringDictionaryBuilder(limit: StringColumn.maximumDictionaryEntries)
    var nullRows: [Int32] = []
    var rowCodes: [UInt32] = []
    rowCodes.reserveCapacity(chunks.reduce(0) { $0 + $1.rows })
    for chunk in chunks {
      guard let codes = chunk.codes else { return nil }
      let entries = chunk.dictionary ?? ParquetValues(type: element.type ?? 0, typeLength: element.typeLength)
      guard let converted = try? column(element, entries, valid: nil), case .string(let text) = converted.storage else {
        return nil
      }
      var map: [UInt32] = []
      map.reserveCapacity(text.count)
      for entry in 0..<text.count {
        guard let code = builder.code(of: text.utf8(entry)) else { return nil }
        map.append(code)
      }
      if let valid = chunk.valid {
        guard let empty = builder.code(of: ArraySlice<UInt8>()) else { return nil }
        var next = 0
        for flag in valid {
          if flag {
            rowCodes.append(map[Int(codes[next])])
            next += 1
          } else {
            nullRows.append(Int32(truncatingIfNeeded: rowCodes.count))
            rowCodes.append(empty)
          }
        }
      } else if rowCodes.isEmpty, chunks.count == 1, map.indices.allSatisfy({ map[$0] == UInt32($0) }) {
        // One chunk whose entries are the dictionary's, in order (a row group read alone): its
        // codes as they are (checked below the dictionary's count when decoded).
        rowCodes = codes
      } else {
        guard UnsafeParquetBytes.appendLookingUp(codes, in: map, to: &rowCodes) else { return nil }
      }
    }
    let count = rowCodes.count
    let validity = nullRows.isEmpty ? Validity(allValid: count) : Validity(count: count, nullRows: nullRows)
    return Column(.string(StringColumn(dictionary: builder.entries, codes: rowCodes)), validity: validity)
  }

  /// The text of each of `days` (a dictionary's dates), when they are distinct days (so their
  /// texts are distinct) within a span that a bit per day checks in one pass, and at most
  /// `StringColumn.maximumDictionaryEntries`; `nil` otherwise.
  static func dates(_ days: [Int64]) -> StringColumn? {
    guard !days.isEmpty, days.count <= StringColumn.maximumDictionaryEntries,
      let low = days.min(), let high = days.max(), high - low < 64 * Int64(days.count) + 4_096
    else { return nil }
    var seen = [UInt64](repeating: 0, count: Int(high - low) / 64 + 1)
    for day in days {
      let at = Int(day - low)
      let bit: UInt64 = 1 << UInt64(at & 63)
      guard seen[at >> 6] & bit == 0 else { return nil }
      seen[at >> 6] |= bit
    }
    var bytes: [UInt8] = []
    var offsets = [0]
    bytes.reserveCapacity(10 * days.count)
    offsets.reserveCapacity(days.count + 1)
    for day in days {
      ParquetTimeText.appendDate(Int(day), to: &bytes)
      offsets.append(bytes.count)
    }
    return StringColumn(validUTF8: bytes, offsets: offsets)
  }
}
