import FlowGraph
import FlowRuntime

/// `readJSON`'s values built a block at a time, so the memory limit holds while they are built
/// (the rule: no node overshoots the memory limit by more than one block of what it builds).
///
/// A parsed value takes several times its text (a tree of values, then the table's columns),
/// so the reader checks `RunLimits.checkMemory(adding:for:)` before each `textBlockBytes` of
/// text it parses, adding 8 bytes per byte of that text (what it may build): JSON
/// Lines line by line, and an array of values element by element — its elements are found by
/// a scan of the brackets, braces and strings (`elementRanges`), and parsed a block of them at
/// a time. Anything the scan does not take for a plain array (an object, a syntax error) is
/// parsed whole, so every error message is the whole parse's.
struct JSONBlockReader {
  let limits: RunLimits?
  let path: String
  /// Text parsed between two checks of the memory limit (default 2 MiB).
  var textBlockBytes = RunLimits.memoryBlockBytes / 8

  /// Checks the memory limit before the values of the next block of text (of the `remaining`
  /// bytes) are built, adding what they may take (8 bytes per byte of text).
  private func checkMemory(remaining: Int) throws(NodeError) {
    try limits?.checkMemory(adding: Swift.min(remaining, textBlockBytes) * 8, for: "reading the file")
  }

  /// The document in `bytes`.
  ///
  /// - Throws: `NodeError` for invalid JSON (`path:line:column: invalid JSON: …`) or the
  ///   memory limit.
  func value(_ bytes: [UInt8]) throws -> JSONValue {
    try checkMemory(remaining: bytes.count)
    guard let ranges = Self.elementRanges(bytes) else { return try parseWhole(bytes) }
    var items: [JSONValue] = []
    items.reserveCapacity(ranges.count)
    var index = 0
    while index < ranges.count {
      // A block of elements, parsed as one array of them.
      var end = index
      var size = 0
      while end < ranges.count && (end == index || size < Swift.max(1, textBlockBytes)) {
        size += ranges[end].count
        end += 1
      }
      var text: [UInt8] = [UInt8(ascii: "[")]
      text.reserveCapacity(size + end - index + 1)
      for position in index..<end {
        if position > index { text.append(UInt8(ascii: ",")) }
        text += bytes[ranges[position]]
      }
      text.append(UInt8(ascii: "]"))
      guard case .array(let block) = try? JSONValue.parse(text) else { return try parseWhole(bytes) }
      items += block
      index = end
      if index < ranges.count { try checkMemory(remaining: bytes.count - ranges[index].lowerBound) }
    }
    return .array(items)
  }

  private func parseWhole(_ bytes: [UInt8]) throws -> JSONValue {
    do { return try JSONValue.parse(bytes) } catch {
      throw NodeError("\(path):\(error.line):\(error.column): invalid JSON: \(error.message)")
    }
  }

  /// The values of the non-blank lines of `bytes` (a line ends at `\n`; a `\r` before it
  /// is whitespace to JSON).
  func lines(_ bytes: [UInt8]) throws -> [JSONValue] {
    try checkMemory(remaining: bytes.count)
    var values: [JSONValue] = []
    var start = 0
    var lineNumber = 0
    var nextCheck = textBlockBytes
    while start < bytes.count {
      lineNumber += 1
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = bytes[start..<end]
      start = end + 1
      guard line.contains(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) else { continue }
      do { values.append(try JSONValue.parse(Array(line))) } catch {
        throw NodeError("\(path):\(lineNumber):\(error.column): invalid JSON: \(error.message)")
      }
      if start >= nextCheck && start < bytes.count {
        try checkMemory(remaining: bytes.count - start)
        nextCheck = start + textBlockBytes
      }
    }
    return values
  }

  /// The byte ranges of the elements of `bytes` if it is one array (after an optional byte
  /// order mark and whitespace, up to whitespace), found by one scan that follows strings
  /// (with their escapes) and nesting; `nil` for anything else or a structure the scan cannot
  /// follow (the whole parse then gives the value or the exact error).
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  static func elementRanges(_ bytes: [UInt8]) -> [Range<Int>]? {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while i < bytes.count && isSpace(bytes[i]) { i += 1 }
    guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
    i += 1
    var ranges: [Range<Int>] = []
    var depth = 0
    var start = i
    var inString = false
    while i < bytes.count {
      let byte = bytes[i]
      if inString {
        if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
        case UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: "]") where depth > 0: depth -= 1
        case UInt8(ascii: "]"), UInt8(ascii: ","):
          guard depth == 0 else { break }
          let element = start..<i
          let blank = !bytes[element].contains { !isSpace($0) }
          if byte == UInt8(ascii: ",") || !blank || !ranges.isEmpty {
            guard !blank else { return nil }  // `[,`, `,,` or `,]`: the whole parse says where
            ranges.append(element)
          }
          start = i + 1
          if byte == UInt8(ascii: "]") {
            // Only whitespace may follow the array.
            return bytes[(i + 1)...].allSatisfy(isSpace) ? ranges : nil
          }
        default: break
        }
        guard depth >= 0 else { return nil }
      }
      i += 1
    }
    return nil
  }
}
