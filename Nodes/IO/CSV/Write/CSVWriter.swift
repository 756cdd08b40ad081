import FlowRuntime

/// Writes a `Table` as CSV (Reference.md, "Table semantics"): a header row, then one row per table row, LF
/// line ends; a cell is quoted only where needed (it holds the delimiter, a quote, CR or LF, or
/// is a string that would read back as something else: the empty string is `""`, a string
/// equal to a null token is quoted); a null is an empty unquoted cell; numbers are in their
/// shortest round-trip form (whole numbers without `.0`).
///
/// - Complexity: O(cells); the output is built in one buffer.
struct CSVWriter {
  var delimiter: UInt8 = UInt8(ascii: ",")
  var nullTokens: Set<String> = Set(CSVReader.defaultNullValues)

  var longestToken: Int { nullTokens.map(\.utf8.count).max() ?? -1 }

  /// The CSV bytes of `table`.
  ///
  /// - Throws: `CancellationError` if the task is cancelled while writing a big table.
  func bytes(of table: Table) throws -> [UInt8] {
    let longestToken = longestToken
    var output: [UInt8] = []
    output.reserveCapacity(64 + table.rowCount * max(1, table.columnCount) * 8)
    for (index, name) in table.columnNames.enumerated() {
      if index > 0 { output.append(delimiter) }
      appendString(name, to: &output, quoteIfToken: false)
    }
    output.append(UInt8(ascii: "\n"))
    let columns = table.columns
    for row in 0..<table.rowCount {
      if row & 0xFFFF == 0xFFFF && Task.isCancelled { throw CancellationError() }
      for (index, column) in columns.enumerated() {
        if index > 0 { output.append(delimiter) }
        guard column.validity.isValid(row) else { continue }
        switch column.storage {
        case .integer(let values): appendInteger(values[row], to: &output)
        case .number(let values): appendNumber(values[row], to: &output)
        case .bool(let values): output.append(contentsOf: values[row] ? Self.trueBytes : Self.falseBytes)
        case .string(let strings): appendUTF8(strings.utf8(row), to: &output, longestToken: longestToken)
        }
      }
      output.append(UInt8(ascii: "\n"))
    }
    return output
  }

  static let trueBytes = Array("true".utf8)
  static let falseBytes = Array("false".utf8)

  func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    if value >= 0 && value < 10 {
      output.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    output.append(contentsOf: String(value).utf8)
  }

  func appendNumber(_ value: Double, to output: inout [UInt8]) {
    if value.isNaN { output.append(contentsOf: "NaN".utf8); return }
    if value.isInfinite { output.append(contentsOf: (value < 0 ? "-inf" : "inf").utf8); return }
    if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
      appendInteger(Int64(value), to: &output)
      return
    }
    output.append(contentsOf: value.description.utf8)
  }

  func appendString(_ text: String, to output: inout [UInt8], quoteIfToken: Bool = true) {
    appendUTF8(ArraySlice(text.utf8), to: &output, quoteIfToken: quoteIfToken, longestToken: longestToken)
  }

  func appendUTF8(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8], quoteIfToken: Bool = true, longestToken: Int) {
    var needsQuotes = bytes.isEmpty
    for byte in bytes where byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D {
      needsQuotes = true
      break
    }
    if !needsQuotes && quoteIfToken && bytes.count <= longestToken
      && nullTokens.contains(String(decoding: bytes, as: UTF8.self))
    {
      needsQuotes = true
    }
    guard needsQuotes else {
      output.append(contentsOf: bytes)
      return
    }
    output.append(0x22)
    for byte in bytes {
      output.append(byte)
      if byte == 0x22 { output.append(0x22) }
    }
    output.append(0x22)
  }
}
