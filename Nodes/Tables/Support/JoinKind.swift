import FlowRuntime

/// `join`'s `how`: which rows the output keeps and in what order (SPEC §5).
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

  /// The output's row count, known before it is built: at most 2³¹ × 2³¹ + 2³¹ rows, no
  /// overflow.
  ///
  /// - Complexity: O(left rows + right rows).
  func outputRowCount(_ matches: JoinMatches) -> Int {
    var rows = 0
    switch self {
    case .inner, .left, .full, .semi, .anti:
      for row in matches.leftIDs.indices {
        let count = matches.rightMatches(ofLeft: row).count
        switch self {
        case .inner: rows += count
        case .left, .full: rows += max(count, 1)
        case .semi: rows += count > 0 ? 1 : 0
        default: rows += count > 0 ? 0 : 1
        }
      }
      if self == .full {
        for row in matches.rightIDs.indices where matches.leftMatches(ofRight: row).isEmpty { rows += 1 }
      }
    case .right:
      for row in matches.rightIDs.indices { rows += max(matches.leftMatches(ofRight: row).count, 1) }
    }
    return rows
  }

  /// The output rows as two selection vectors of `rows` entries each: the left row and the
  /// right row of each output row, -1 where there is none (`right` is empty for `semi` and
  /// `anti`).
  ///
  /// - Parameter rows: `outputRowCount(matches)`, already checked against the row limit.
  /// - Throws: `CancellationError` if the task is cancelled.
  /// - Complexity: O(left rows + right rows + `rows`).
  func selection(_ matches: JoinMatches, rows: Int) throws -> (left: [Int32], right: [Int32]) {
    var leftTake: [Int32] = [], rightTake: [Int32] = []
    leftTake.reserveCapacity(rows)
    if !keepsLeftColumnsOnly { rightTake.reserveCapacity(rows) }
    switch self {
    case .inner, .left, .full, .semi, .anti:
      for row in matches.leftIDs.indices {
        let range = matches.rightMatches(ofLeft: row)
        switch self {
        case .semi: if !range.isEmpty { leftTake.append(Int32(row)) }
        case .anti: if range.isEmpty { leftTake.append(Int32(row)) }
        default:
          for index in range {
            leftTake.append(Int32(row))
            rightTake.append(matches.rightRows[index])
          }
          if range.isEmpty && self != .inner {
            leftTake.append(Int32(row))
            rightTake.append(-1)
          }
        }
        if row & 0xFFFF == 0xFFFF && Task.isCancelled { throw CancellationError() }
      }
      if self == .full {
        for row in matches.rightIDs.indices where matches.leftMatches(ofRight: row).isEmpty {
          leftTake.append(-1)
          rightTake.append(Int32(row))
        }
      }
    case .right:
      for row in matches.rightIDs.indices {
        let range = matches.leftMatches(ofRight: row)
        for index in range {
          leftTake.append(matches.leftRows[index])
          rightTake.append(Int32(row))
        }
        if range.isEmpty {
          leftTake.append(-1)
          rightTake.append(Int32(row))
        }
        if row & 0xFFFF == 0xFFFF && Task.isCancelled { throw CancellationError() }
      }
    }
    return (leftTake, rightTake)
  }

  /// A key column of a `right` or `full` join: the left key cell where the output row has a
  /// left row, else the right one (a right-only row carries its own key values). Integer and
  /// number keys give a `number` column.
  ///
  /// - Precondition: the two columns have the same type or are both numeric (as
  ///   `ColumnCodes.joinCodes` checked), and each output row has a left or a right row.
  static func keyColumn(left: Column, right: Column, leftTake: [Int32], rightTake: [Int32]) -> Column {
    var builder = ColumnBuilder(left.type == right.type ? left.type : .number, capacity: leftTake.count)
    for (leftRow, rightRow) in zip(leftTake, rightTake) {
      if leftRow >= 0 { builder.append(from: left, row: Int(leftRow)) } else { builder.append(from: right, row: Int(rightRow)) }
    }
    return builder.build()
  }
}
