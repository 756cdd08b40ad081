/// Reads one column chunk of a flat column: its dictionary page if any, then data pages (v1
/// and v2) until the row group's rows are read, into values and null flags.
///
/// Invariants: the chunk's bytes (`extent`) lie inside the file's data (before the footer) and
/// every page inside the chunk; a page's values and levels never exceed the rows left in the
/// row group (so no count read from the file can make it allocate more than the row count the
/// footer was checked for); a page decompresses to exactly its header's size, at most
/// `byteLimit`, and its bytes are dropped once its values are decoded.
struct ParquetChunkReader {
  /// The chunk's bytes (`extent` of the file).
  let data: [UInt8]
  /// Where `data` starts in the file, for messages.
  let base: Int
  let column: ParquetColumnMetaData
  let element: ParquetSchemaElement
  /// The row group's rows.
  let rows: Int
  /// The most bytes a page may decompress to (the memory limit).
  let byteLimit: Int

  /// Where `column`'s chunk lies in a file whose footer starts at `dataEnd`: from its first
  /// page (the dictionary's, if before the data pages) for its compressed size, or to the
  /// footer where that size is missing or runs past it.
  static func extent(of column: ParquetColumnMetaData, dataEnd: Int) throws(ParquetError) -> Range<Int> {
    var start = Int(clamping: column.dataPageOffset)
    if let dictionary = column.dictionaryPageOffset, dictionary > 0, dictionary < start { start = Int(dictionary) }
    guard start >= 4, start < dataEnd else {
      throw ParquetError("the column chunk's offset \(start) is outside the file's data")
    }
    let size = column.totalCompressedSize
    return start..<(size > 0 && size < Int64(dataEnd - start) ? start + Int(size) : dataEnd)
  }

  /// A chunk's values and, for an optional column, which rows hold one.
  ///
  /// A text column (`ParquetColumnConversion.keepsDictionary`) whose data pages are all
  /// dictionary-encoded keeps each value's dictionary index in `codes` (and `values` stays
  /// empty), so that its text is converted once per dictionary entry, not once per row.
  struct Chunk: Sendable {
    var values: ParquetValues
    /// Whether each row read holds a value; `nil` while every one does (a required column's
    /// always), so that a column without nulls keeps no flags.
    var valid: [Bool]?
    /// The rows read.
    var rows = 0
    /// Each value's index into `dictionary` (all below its count), or `nil` when `values` holds them.
    var codes: [UInt32]?
    var dictionary: ParquetValues?

    /// The values decoded so far.
    var decodedCount: Int { codes?.count ?? values.count }

    /// The values in `values` (indices into the dictionary looked up).
    mutating func materialize() {
      guard let indices = codes else { return }
      if let dictionary, !indices.isEmpty { values.append(gathering: indices, of: dictionary) }
      codes = nil
    }
  }

  /// The chunk's values.
  ///
  /// - Throws: `ParquetError` (without the column's name: the caller adds it).
  func read() throws(ParquetError) -> Chunk {
    let empty = ParquetValues(type: element.type ?? 0, typeLength: element.typeLength)
    guard rows > 0 else { return Chunk(values: empty, valid: nil) }
    let end = data.count
    var chunk = Chunk(values: empty, valid: nil, codes: ParquetColumnConversion.keepsDictionary(element) ? [] : nil)
    // At most a value a row (the row count the footer was checked for), so no regrowth per page;
    // no more than the chunk's bytes could plausibly hold, so a file claiming rows it lacks
    // reserves little. Values and codes are reserved only before a first page of fewer values
    // than rows (a chunk of one page takes its page's values as they are).
    let expected = min(rows, 64 * data.count + 4_096)
    var read = 0
    var position = 0
    while read < rows {
      guard position < end else { throw ParquetError("the column chunk ends after \(read) of its \(rows) rows") }
      let header = try ParquetPageHeader(data, from: position, to: end)
      guard header.compressedSize <= end - header.headerEnd else {
        throw ParquetError("a page runs past the column chunk (at byte \(base + position))")
      }
      guard header.uncompressedSize <= byteLimit else {
        throw ParquetError(
          "a page of \(header.uncompressedSize) bytes, past the memory limit (raise it with --max-memory)")
      }
      let body = header.headerEnd..<header.headerEnd + header.compressedSize
      position = body.upperBound
      switch header.type {
      case 2:
        guard chunk.dictionary == nil else { throw ParquetError("a second dictionary page") }
        let page = try ParquetCodec.decompress(data, body, codec: column.codec, size: header.uncompressedSize)
        guard header.valueCount <= page.count * 8 else {
          throw ParquetError("a dictionary of \(header.valueCount) values in \(page.count) bytes")
        }
        var values = ParquetValues(type: chunk.values.type, typeLength: chunk.values.typeLength)
        try values.appendPlain(header.valueCount, page, from: 0, to: page.count)
        chunk.dictionary = values
      case 0, 3:
        guard header.valueCount <= rows - read else {
          throw ParquetError(
            "a page of \(header.valueCount) values where \(rows - read) rows are left in the row group")
        }
        if chunk.decodedCount == 0, header.valueCount < rows {
          if chunk.codes != nil {
            chunk.codes?.reserveCapacity(expected)
          } else {
            chunk.values.reserveCapacity(expected, bytes: 0)
          }
        }
        try readDataPage(header, body, into: &chunk)
        read += header.valueCount
      default:
        continue
      }
    }
    return chunk
  }

  /// Decodes a data page's levels and values into `chunk`.
  private func readDataPage(_ header: ParquetPageHeader, _ body: Range<Int>, into chunk: inout Chunk)
    throws(ParquetError)
  {
    let count = header.valueCount
    let optional = element.repetition == 1
    var levels: [UInt32] = []
    // A page without nulls has its levels in one run of 1s: then no level is stored.
    var allPresent = false
    let page: [UInt8]
    var start = 0
    if header.type == 0 {
      page = try ParquetCodec.decompress(data, body, codec: column.codec, size: header.uncompressedSize)
      if optional {
        if header.definitionEncoding == 4 {
          guard page.count * 8 >= count else { throw ParquetError("the definition levels run past the page") }
          for index in 0..<count { levels.append(UInt32(page[index >> 3] >> (7 - index & 7) & 1)) }
          start = (count + 7) / 8
        } else {
          guard page.count >= 4 else { throw ParquetError("the definition levels run past the page") }
          let length = Int(ParquetValues.littleEndian(page, 0, 4))
          guard length <= page.count - 4 else { throw ParquetError("the definition levels run past the page") }
          var decoder = try ParquetRLEDecoder(page, from: 4, to: 4 + length, bitWidth: 1, what: "the definition levels")
          allPresent = decoder.skipRun(of: 1, covering: count)
          if !allPresent { try decoder.decode(count, into: &levels) }
          start = 4 + length
        }
      }
    } else {
      let levelBytes = header.repetitionLevelsLength + header.definitionLevelsLength
      guard levelBytes <= body.count, levelBytes <= header.uncompressedSize else {
        throw ParquetError("the levels run past the page")
      }
      if optional {
        let from = body.lowerBound + header.repetitionLevelsLength
        var decoder = try ParquetRLEDecoder(
          data, from: from, to: from + header.definitionLevelsLength, bitWidth: 1,
          what: "the definition levels")
        allPresent = decoder.skipRun(of: 1, covering: count)
        if !allPresent { try decoder.decode(count, into: &levels) }
      }
      let values = body.lowerBound + levelBytes..<body.upperBound
      let size = header.uncompressedSize - levelBytes
      page =
        header.isCompressed
        ? try ParquetCodec.decompress(data, values, codec: column.codec, size: size) : Array(data[values])
    }
    var present = count
    if allPresent {
      chunk.valid?.append(contentsOf: repeatElement(true, count: count))
    } else if optional {
      present = 0
      var widest: UInt32 = 0
      for level in levels {
        widest |= level
        present &+= Int(level)
      }
      guard widest <= 1 else {
        throw ParquetError("a definition level of \(levels.first { $0 > 1 } ?? widest) in a flat column")
      }
      if present < count, chunk.valid == nil { chunk.valid = [Bool](repeating: true, count: chunk.rows) }
      chunk.valid?.append(contentsOf: levels.lazy.map { $0 == 1 })
    }
    chunk.rows += count
    if header.encoding != 2, header.encoding != 8 { chunk.materialize() }
    let before = chunk.decodedCount
    try decodeValues(header.encoding, present, page, from: start, into: &chunk)
    guard chunk.decodedCount - before == present else {
      throw ParquetError("a page decoded to the wrong number of values")
    }
  }

  /// Decodes `count` values in `encoding` from `page[start...]`.
  private func decodeValues(
    _ encoding: Int, _ count: Int, _ page: [UInt8], from start: Int,
    into chunk: inout Chunk
  ) throws(ParquetError) {
    let end = page.count
    if encoding == 2 || encoding == 8 {
      guard let dictionary = chunk.dictionary else {
        throw ParquetError("dictionary-encoded values without a dictionary page")
      }
      guard count > 0 else { return }
      guard start < end else { throw ParquetError("the dictionary indices run past the page") }
      var decoder = try ParquetRLEDecoder(
        page, from: start + 1, to: end, bitWidth: Int(page[start]), what: "the dictionary indices")
      if var codes = chunk.codes {
        // Straight into the chunk's codes.
        chunk.codes = nil
        defer { chunk.codes = codes }
        let first = codes.count
        try decoder.decode(count, into: &codes)
        // Every index fits its bit width (at most 32; the decoder checks repeated values too):
        // no pass when the dictionary holds every index that width can write.
        if 1 << decoder.bitWidth <= dictionary.count { return }
        try ParquetValues.check(codes[first...], below: dictionary.count)
        return
      }
      try chunk.values.append(count, lookingUp: &decoder, in: dictionary)
      return
    }
    var values = chunk.values
    chunk.values = ParquetValues(type: values.type, typeLength: values.typeLength)
    defer { chunk.values = values }
    switch encoding {
    case 0:
      try values.appendPlain(count, page, from: start, to: end)
    case 3 where values.type == 0:
      guard end - start >= 4 else { throw ParquetError("the RLE booleans run past the page") }
      let length = Int(ParquetValues.littleEndian(page, start, 4))
      guard length <= end - start - 4 else { throw ParquetError("the RLE booleans run past the page") }
      var decoder = try ParquetRLEDecoder(
        page, from: start + 4, to: start + 4 + length, bitWidth: 1, what: "the RLE booleans")
      var bits: [UInt32] = []
      try decoder.decode(count, into: &bits)
      values.bools += bits.map { $0 == 1 }
    case 5 where values.type == 1 || values.type == 2:
      try values.appendDeltaBinaryPacked(count, page, from: start, to: end)
    case 6 where values.type == 6:
      try values.appendDeltaLength(count, page, from: start, to: end)
    case 7 where values.type == 6 || values.type == 7:
      try values.appendDeltaByteArray(count, page, from: start, to: end, byteLimit: byteLimit)
    case 9:
      try values.appendByteStreamSplit(count, page, from: start, to: end)
    default:
      throw ParquetError(
        "the encoding \(Self.encodingName(encoding)) is not supported for physical type \(values.type)")
    }
  }

  static func encodingName(_ encoding: Int) -> String {
    let names = [
      0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
      6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"
    ]
    return names[encoding] ?? "\(encoding)"
  }
}
