import FlowNodes
import FlowTestSupport
import FlowNodesTestSupport

/// Mutations that keep a CSV's shape (the `csv` fuzz target's other half, beside the byte-level
/// `Mutator`): a cell replaced by another, a column's cells from some row on, rows repeated,
/// swapped or given a CRLF ending, and quoting: a column's cells or a row's quoted (RFC 4180,
/// inner quotes doubled), a quoted cell with a delimiter, `""`, LF, CR or CRLF inside planted in
/// a column. Byte-level mutations mostly make a record ragged or plant a stray quote, which
/// every parallel read leaves to the serial one; these keep most records `width` wide, so the
/// structural index (quoted fields included), the in-place columns, the short codes and the
/// block cuts see the input, with cells that change a column's type, hit its nulls or sit on a
/// number's limits.
struct CSVMutator {
  /// Cells worth planting: nulls, numbers at their limits and in every spelling the converters
  /// branch on, text that stays plain and text that needs quotes.
  static let cells: [[UInt8]] = [
    "", "NA", "N/A", "null", "NaN", "0", "-0", "007", "+5", "-", "1.", ".5", "-.5", "2.5", "1e3", "1E-400", "1e999",
    "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "12345678", "123456789", "1234567890123456789012", " 12", "12 ", "0x10", "1_000", "true", "FALSE", "x", "AA", "JFK",
    "N123JB", "é", "a😀b", "2013-01-01 05:00:00", "\"a,b\"", "\"\"\"\"", "\"two\nlines\"", "\"\"", "x\"y"
  ].map { Array($0.utf8) }

  /// Quoted cells of every pattern the structural index takes (and a few it leaves to the
  /// scanner: text after a closing quote, a quote after a space).
  static let quotedCells: [[UInt8]] = [
    "\"a,b\"", "\"a;b\"", "\"a\tb|c\"", "\"x\"\"y\"", "\"\"\"\"", "\"\"\"\"\"\"", "\"end\"\"\"", "\"\"\"start\"",
    "\"\"",
    "\"two\nlines\"", "\"cr\rinside\"", "\"crlf\r\ninside\"", "\"\n\"", "\"NA\"", "\"12\"", "\"-2.5\"", "\"true\"",
    "\" \"",
    "\"q\"tail", " \"q\""
  ].map { Array($0.utf8) }

  /// `cell` quoted as RFC 4180 writes it (its quotes doubled).
  static func quoted(_ cell: [UInt8]) -> [UInt8] {
    let quote = UInt8(ascii: "\"")
    return [quote] + cell.flatMap { $0 == quote ? [quote, quote] : [$0] } + [quote]
  }

  var random: SeededRandom

  /// `input` after one to three shape-keeping mutations of its rows after the first (an input of
  /// one line comes back as it is), cut to at most `limit` bytes.
  mutating func mutate(_ input: [UInt8], limit: Int) -> [UInt8] {
    var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    let delimiter = CSVDifferentialRead.commonDelimiter(of: input)
    for _ in 0..<Int.random(in: 1...3, using: &random) where lines.count > 1 {
      let row = Int.random(in: 1..<lines.count, using: &random)
      switch Int.random(in: 0..<9, using: &random) {
      case 0, 1:  // one cell
        var cells = lines[row].split(separator: delimiter, omittingEmptySubsequences: false).map(Array.init)
        cells[Int.random(in: 0..<cells.count, using: &random)] = Self.cells.randomElement(using: &random)!
        lines[row] = Array(cells.joined(separator: [delimiter]))
      case 2:  // a column's cells (one of the first 8) from this row on
        let column = Int.random(in: 0..<8, using: &random), cell = Self.cells.randomElement(using: &random)!
        for index in row..<lines.count {
          var cells = lines[index].split(separator: delimiter, omittingEmptySubsequences: false).map(Array.init)
          if column < cells.count { cells[column] = cell }
          lines[index] = Array(cells.joined(separator: [delimiter]))
        }
      case 3:  // a row repeated
        let copies = Int.random(in: 1...64, using: &random)
        lines.insert(contentsOf: repeatElement(lines[row], count: copies), at: row)
      case 4:  // two rows swapped
        lines.swapAt(row, Int.random(in: 1..<lines.count, using: &random))
      case 5:  // a CRLF ending, or a final line feed dropped
        if row == lines.count - 1 { lines.removeLast() } else { lines[row].append(UInt8(ascii: "\r")) }
      case 6:  // a column's cells (one of the first 8) quoted from this row on
        let column = Int.random(in: 0..<8, using: &random)
        for index in row..<lines.count {
          var cells = lines[index].split(separator: delimiter, omittingEmptySubsequences: false).map(Array.init)
          if column < cells.count { cells[column] = Self.quoted(cells[column]) }
          lines[index] = Array(cells.joined(separator: [delimiter]))
        }
      case 7:  // a row's cells quoted
        let cells = lines[row].split(separator: delimiter, omittingEmptySubsequences: false).map {
          Self.quoted(Array($0))
        }
        lines[row] = Array(cells.joined(separator: [delimiter]))
      default:  // a quoted cell planted in a column (one of the first 8), in rows from this one on
        let column = Int.random(in: 0..<8, using: &random), cell = Self.quotedCells.randomElement(using: &random)!
        let every = Int.random(in: 1...4, using: &random)
        for index in stride(from: row, to: lines.count, by: every) {
          var cells = lines[index].split(separator: delimiter, omittingEmptySubsequences: false).map(Array.init)
          if column < cells.count { cells[column] = cell }
          lines[index] = Array(cells.joined(separator: [delimiter]))
        }
      }
    }
    var output = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    if output.count > limit { output.removeLast(output.count - limit) }
    return output
  }
}
