extension Table {
  /// The table as an aligned grid for people (Reference.md, "Values and types"): a header of column names, then at most
  /// `maxRows` rows, then `… N more rows` if some were left out.
  ///
  /// Numbers are right-aligned and print as `flow run` text prints them; strings are left-aligned
  /// and unquoted, with line breaks and tabs shown as `\n`, `\r`, `\t` and other control
  /// characters as `\u001B` … (`String.controlEscaped`; column names too); a null cell is `null`.
  /// A table without columns prints as `(N rows, no columns)`.
  public func text(maxRows: Int = 20) -> String {
    guard columnCount > 0 else { return "(\(rowCount) row\(rowCount == 1 ? "" : "s"), no columns)" }
    let shown = min(rowCount, max(0, maxRows))
    var grid: [[String]] = [storage.names.map(Self.escaped)]
    for row in 0..<shown { grid.append(storage.columns.map { Self.cellText($0[row]) }) }
    var widths = [Int](repeating: 0, count: columnCount)
    for line in grid {
      for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    let rightAligned = storage.columns.map(\.isNumeric)
    var lines: [String] = []
    lines.reserveCapacity(grid.count + 1)
    for line in grid {
      var text = ""
      for (index, cell) in line.enumerated() {
        if index > 0 { text += "  " }
        let pad = String(repeating: " ", count: widths[index] - cell.count)
        let isLast = index == line.count - 1
        text += rightAligned[index] ? pad + cell : (isLast ? cell : cell + pad)
      }
      lines.append(text)
    }
    if rowCount > shown {
      let more = rowCount - shown
      lines.append("… \(more) more row\(more == 1 ? "" : "s")")
    }
    return lines.joined(separator: "\n")
  }

  static func cellText(_ value: Value) -> String {
    if case .string(let text) = value { return escaped(text) }
    return value.description
  }

  static func escaped(_ text: String) -> String { text.controlEscaped }
}
