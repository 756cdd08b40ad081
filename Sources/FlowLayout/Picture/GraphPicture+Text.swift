import FlowGraph
import FlowRuntime

/// The text of a box that runs longer than one line: params, error messages and table previews
/// are drawn whole, wrapped at `wrapWidth` characters, never cut off.
extension GraphPicture {
  /// The characters of one drawn line of a param, a message or a table preview.
  package static let wrapWidth = 60
  /// The rows of a table output drawn in its node (under its column names).
  package static let tablePreviewRows = 5
  /// The most lines one param or message is wrapped into (a bound on a box's height); the last
  /// ends with `…` when the text is longer still.
  package static let wrapLineLimit = 40

  /// `text` cut into lines of at most `width` characters, at spaces where it can be; lines after
  /// the first are indented by `indent` spaces.
  ///
  /// - Complexity: O(characters of the lines kept).
  package static func wrap(_ text: String, width: Int = wrapWidth, indent: Int = 2) -> [String] {
    guard text.count > width else { return [text] }
    var lines: [String] = []
    var rest = Substring(text)
    let pad = String(repeating: " ", count: indent)
    while !rest.isEmpty {
      let room = lines.isEmpty ? width : width - indent
      if lines.count == wrapLineLimit - 1 && rest.count > room {
        lines.append((lines.isEmpty ? "" : pad) + rest.prefix(room - 1) + "…")
        break
      }
      var line = rest.prefix(room)
      if line.count < rest.count, let space = line.lastIndex(of: " "), space > line.startIndex {
        line = rest[rest.startIndex..<rest.index(after: space)]
      }
      rest = rest[line.endIndex...]
      let trimmed = String(line.reversed().drop(while: { $0 == " " }).reversed())
      lines.append((lines.isEmpty ? "" : pad) + trimmed)
    }
    return lines
  }

  /// The preview of a table output: its column names and first `tablePreviewRows` rows as the
  /// aligned grid `flow run` prints, each line at most `wrapWidth` characters.
  package static func tablePreview(_ table: Table) -> [String] {
    table.text(maxRows: tablePreviewRows).split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.count <= wrapWidth ? String(line) : String(line.prefix(wrapWidth - 1)) + "…"
    }
  }
}
