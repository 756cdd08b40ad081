import FlowRuntime

/// Dictionary encoding of a string chunk: a dictionary page (the distinct strings, `PLAIN`),
/// then data pages of indices (`RLE_DICTIONARY`: a bit-width byte, then the RLE/bit-packed
/// hybrid). A column already in the dictionary layout in memory gives its codes (renumbered to
/// the entries this chunk uses); a flat one is encoded here when it has few distinct strings.
extension ParquetChunkWriter {
  /// The chunk's distinct strings and each valid row's entry, when a dictionary makes the
  /// chunk smaller than `PLAIN` strings; nil otherwise.
  ///
  /// - Complexity: O(rows + bytes) of the chunk.
  func dictionaryEncoding(_ strings: StringColumn) -> (entries: StringColumn, codes: [UInt32])? {
    guard rows.upperBound <= Int(Int32.max) else { return nil }
    var valid: [Int32] = []
    valid.reserveCapacity(rows.count)
    for row in rows where !column.isNull(row) { valid.append(Int32(row)) }
    guard !valid.isEmpty else { return nil }
    let gathered = strings.gathering(valid)
    var entries = StringColumn()
    var codes: [UInt32] = []
    if let dictionary = gathered.dictionary, let shared = gathered.codes {
      // Renumber the codes this chunk uses, in order of first use.
      codes.reserveCapacity(shared.count)
      if dictionary.count <= shared.count {
        var renumbered = [UInt32](repeating: .max, count: dictionary.count)
        for code in shared {
          if renumbered[Int(code)] == .max {
            renumbered[Int(code)] = UInt32(entries.count)
            entries.append(utf8: dictionary.utf8(Int(code)))
          }
          codes.append(renumbered[Int(code)])
        }
      } else {
        var renumbered: [UInt32: UInt32] = [:]
        for code in shared {
          if let known = renumbered[code] {
            codes.append(known)
          } else {
            renumbered[code] = UInt32(entries.count)
            codes.append(UInt32(entries.count))
            entries.append(utf8: dictionary.utf8(Int(code)))
          }
        }
      }
    } else {
      let limit = min(StringColumn.maximumDictionaryEntries, valid.count / 2 + 1)
      guard let encoded = gathered.dictionaryEncoded(limit: limit), let dictionary = encoded.dictionary,
        let shared = encoded.codes
      else { return nil }
      entries = dictionary
      codes = shared
    }
    let width = Self.bitWidth(entries.count)
    let dictionaryBytes = entries.utf8Count + 4 * entries.count + (codes.count * width + 7) / 8 + 16
    let plainBytes = gathered.utf8Count + 4 * codes.count
    return dictionaryBytes < plainBytes ? (entries, codes) : nil
  }

  /// Writes the dictionary page and the index pages.
  func writeDictionary(_ entries: StringColumn, _ codes: [UInt32], into chunk: inout Chunk) throws(ParquetError) {
    var dictionary: [UInt8] = []
    dictionary.reserveCapacity(entries.utf8Count + 4 * entries.count)
    for index in 0..<entries.count {
      let bytes = entries.utf8(index)
      Self.appendLittleEndian(UInt64(bytes.count), 4, to: &dictionary)
      dictionary += bytes
    }
    try appendPage(dictionary, values: entries.count, encoding: 0, dictionary: true, into: &chunk)
    chunk.encodings = isOptional ? [0, 3, 8] : [0, 8]
    let width = Self.bitWidth(entries.count)
    let encoder = ParquetRLEEncoder(bitWidth: width)
    var next = 0
    for start in stride(from: rows.lowerBound, to: rows.upperBound, by: Self.pageRows) {
      let page = start..<min(rows.upperBound, start + Self.pageRows)
      var body = levels(page)
      let levelBytes = body.count
      let nulls = nullCount(page)
      let validCount = page.count - nulls
      body.append(UInt8(width))
      encoder.encode(Array(codes[next..<next + validCount]), into: &body)
      next += validCount
      try appendPage(body, values: page.count, encoding: 8, levelBytes: levelBytes, nulls: nulls, into: &chunk)
    }
  }

  /// The bits an index into `count` entries takes (at least 1).
  static func bitWidth(_ count: Int) -> Int {
    var width = 1
    while width < 32, (count - 1) >> width != 0 { width += 1 }
    return width
  }
}
