import FlowRuntime

/// `join`'s `how`: which rows the output keeps and in what order (Reference.md, "Table semantics").
///
/// - `inner`: left rows with their matches, in left order, matches in right order.
/// - `left`: as `inner`, and an unmatched left row once with nulls for the right columns.
/// - `right`: right rows in right order, each with its left matches in left order; an
///   unmatched right row once, with nulls for the left columns but its own key values.
/// - `full`: the `left` join, then the unmatched right rows in right order (as for `right`).
/// - `semi` / `anti`: each left row with / without a match, once, left columns only.
enum JoinKind: String, CaseIterable, Sendable {
  case inner, left, right, full, semi, anti

  /// Whether the output has only the left table's columns.
  var keepsLeftColumnsOnly: Bool { self == .semi || self == .anti }

  /// Whether rows with no left row (right-only rows) can appear, whose key columns then carry
  /// the right table's key values.
  var keepsUnmatchedRight: Bool { self == .right || self == .full }

  /// Whether `JoinMatches` must index the left rows by key (`leftMatches(ofRight:)`).
  var needsLeftIndex: Bool { keepsUnmatchedRight }

  /// Whether the output walks the left rows (all but `right`, which walks the right rows).
  private var walksLeft: Bool { self != .right }

  /// The output's row count, known before it is built: at most 2³¹ × 2³¹ + 2³¹ rows, no
  /// overflow. Counted per morsel on the workers.
  ///
  /// - Complexity: O(left rows + right rows).
  func outputRowCount(_ matches: JoinMatches, morsels: TableMorsels) -> Int {
    var rows = 0
    if walksLeft {
      rows += morsels.map(matches.leftIDs.count) { leftRowCount(matches, $0) }.reduce(0, +)
    }
    if keepsUnmatchedRight {
      rows += morsels.map(matches.rightIDs.count) { rightRowCount(matches, $0) }.reduce(0, +)
    }
    return rows
  }

  /// The output rows as two selection vectors of `rows` entries each: the left row and the
  /// right row of each output row, -1 where there is none (`right` is empty for `semi` and
  /// `anti`). Each morsel of rows makes its part on the workers; the parts are joined in
  /// morsel order, so the selection is the same at any worker count.
  ///
  /// - Parameter rows: `outputRowCount(matches)`, already checked against the row limit.
  /// - Throws: `CancellationError` if the task is cancelled.
  /// - Complexity: O(left rows + right rows + `rows`).
  func selection(_ matches: JoinMatches, rows: Int, morsels: TableMorsels) throws -> (left: [Int32], right: [Int32]) {
    var parts: [Selection] = []
    if walksLeft {
      parts += morsels.map(matches.leftIDs.count) { range in
        Task.isCancelled ? Selection() : leftSelection(matches, range)
      }
    }
    if keepsUnmatchedRight {
      parts += morsels.map(matches.rightIDs.count) { range in
        Task.isCancelled ? Selection() : rightSelection(matches, range)
      }
    }
    if Task.isCancelled { throw CancellationError() }
    let leftTake = TableMorsels.joined(parts.map(\.left))
    let rightTake = keepsLeftColumnsOnly ? [] : TableMorsels.joined(parts.map(\.right))
    assert(leftTake.count == rows && (keepsLeftColumnsOnly || rightTake.count == rows))
    return (leftTake, rightTake)
  }

  /// One morsel's part of a selection.
  private struct Selection: Sendable {
    var left: [Int32] = []
    var right: [Int32] = []
  }

  /// The output rows of left rows `range` (every kind but `right`).
  private func leftRowCount(_ matches: JoinMatches, _ range: Range<Int>) -> Int {
    var rows = 0
    for row in range {
      let count = matches.rightMatches(ofLeft: row).count
      switch self {
      case .inner: rows += count
      case .left, .full: rows += max(count, 1)
      case .semi: rows += count > 0 ? 1 : 0
      default: rows += count > 0 ? 0 : 1
      }
    }
    return rows
  }

  /// The output rows that right rows `range` add: each right row with its left matches
  /// (`right`), or the right rows with no left match (`full`).
  private func rightRowCount(_ matches: JoinMatches, _ range: Range<Int>) -> Int {
    var rows = 0
    for row in range {
      let count = matches.leftMatches(ofRight: row).count
      rows += self == .right ? max(count, 1) : (count == 0 ? 1 : 0)
    }
    return rows
  }

  /// The output rows of left rows `range`, in order (every kind but `right`).
  private func leftSelection(_ matches: JoinMatches, _ range: Range<Int>) -> Selection {
    var part = Selection()
    let rows = leftRowCount(matches, range)
    part.left.reserveCapacity(rows)
    if !keepsLeftColumnsOnly { part.right.reserveCapacity(rows) }
    for row in range {
      let found = matches.rightMatches(ofLeft: row)
      switch self {
      case .semi: if !found.isEmpty { part.left.append(Int32(row)) }
      case .anti: if found.isEmpty { part.left.append(Int32(row)) }
      default:
        for index in found {
          part.left.append(Int32(row))
          part.right.append(matches.rightRows[index])
        }
        if found.isEmpty && self != .inner {
          part.left.append(Int32(row))
          part.right.append(-1)
        }
      }
    }
    return part
  }

  /// The output rows that right rows `range` add, in order (`right` and `full`).
  private func rightSelection(_ matches: JoinMatches, _ range: Range<Int>) -> Selection {
    var part = Selection()
    let rows = rightRowCount(matches, range)
    part.left.reserveCapacity(rows)
    part.right.reserveCapacity(rows)
    for row in range {
      let found = matches.leftMatches(ofRight: row)
      if self == .right {
        for index in found {
          part.left.append(matches.leftRows[index])
          part.right.append(Int32(row))
        }
      }
      if found.isEmpty {
        part.left.append(-1)
        part.right.append(Int32(row))
      }
    }
    return part
  }

  /// A key column of a `right` or `full` join: the left key cell where the output row has a
  /// left row, else the right one (a right-only row carries its own key values). Integer and
  /// number keys give a `number` column.
  ///
  /// - Precondition: the two columns have the same type or are both numeric (as
  ///   `JoinCodes.codes` checked), and each output row has a left or a right row.
  static func keyColumn(left: Column, right: Column, leftTake: [Int32], rightTake: [Int32]) -> Column {
    var builder = ColumnBuilder(left.type == right.type ? left.type : .number, capacity: leftTake.count)
    for (leftRow, rightRow) in zip(leftTake, rightTake) {
      if leftRow >= 0 {
        builder.append(from: left, row: Int(leftRow))
      } else {
        builder.append(from: right, row: Int(rightRow))
      }
    }
    return builder.build()
  }
}
