import FlowRuntime

/// Which rows of two tables have equal join keys: each row's key id (-1 for a row that can
/// match nothing: a null key cell, or a left key no right row has) and, per key id, the right
/// rows in right order and the left rows in left order (counting sorts).
///
/// Invariants: `leftIDs.count` and `rightIDs.count` are the two tables' row counts; ids are
/// in `0..<cardinality`; the rows of id `k` are `rightRows[rightStarts[k]..<rightStarts[k + 1]]`
/// (ascending) and likewise for the left side.
struct JoinMatches {
  let leftIDs: [Int32]
  let rightIDs: [Int32]
  let cardinality: Int
  let rightStarts: [Int32]
  let rightRows: [Int32]
  let leftStarts: [Int32]
  let leftRows: [Int32]

  /// The matches of `left` and `right` on the columns named `keys` (in both tables).
  ///
  /// - Throws: `NodeError` if a key column is missing or its two sides hold different kinds of
  ///   values.
  /// - Complexity: O(rows × keys), hashing each key cell once.
  init(left: Table, right: Table, keys: [String]) throws {
    var leftIDs = [Int32](repeating: 0, count: left.rowCount)
    var rightIDs = [Int32](repeating: 0, count: right.rowCount)
    var cardinality = 1
    for (position, key) in keys.enumerated() {
      let codes = try ColumnCodes.joinCodes(left: left.column(at: try TableParameters.column(key, in: left, side: "left")),
                                            right: right.column(at: try TableParameters.column(key, in: right, side: "right")),
                                            name: key)
      if position == 0 {
        (leftIDs, rightIDs, cardinality) = codes
      } else {
        // Combine with the key so far; -1 (no match possible) stays -1.
        var ids: [Int64: Int32] = [:]
        var next: Int32 = 0
        for row in 0..<right.rowCount {
          guard rightIDs[row] >= 0, codes.right[row] >= 0 else { rightIDs[row] = -1; continue }
          let combined = Int64(rightIDs[row]) * Int64(codes.cardinality) + Int64(codes.right[row])
          if let id = ids[combined] { rightIDs[row] = id } else { ids[combined] = next; rightIDs[row] = next; next += 1 }
        }
        for row in 0..<left.rowCount {
          guard leftIDs[row] >= 0, codes.left[row] >= 0 else { leftIDs[row] = -1; continue }
          leftIDs[row] = ids[Int64(leftIDs[row]) * Int64(codes.cardinality) + Int64(codes.left[row])] ?? -1
        }
        cardinality = Int(next)
      }
    }
    self.leftIDs = leftIDs
    self.rightIDs = rightIDs
    self.cardinality = cardinality
    (rightStarts, rightRows) = Self.rowsByID(rightIDs, cardinality: cardinality)
    (leftStarts, leftRows) = Self.rowsByID(leftIDs, cardinality: cardinality)
  }

  /// The right rows matching left row `row`, as a range of `rightRows` (empty if none).
  func rightMatches(ofLeft row: Int) -> Range<Int> {
    let id = leftIDs[row]
    guard id >= 0 else { return 0..<0 }
    return Int(rightStarts[Int(id)])..<Int(rightStarts[Int(id) + 1])
  }

  /// The left rows matching right row `row`, as a range of `leftRows` (empty if none).
  func leftMatches(ofRight row: Int) -> Range<Int> {
    let id = rightIDs[row]
    guard id >= 0 else { return 0..<0 }
    return Int(leftStarts[Int(id)])..<Int(leftStarts[Int(id) + 1])
  }

  /// The rows of each id, in row order: a counting sort of `ids` (rows of id -1 left out).
  private static func rowsByID(_ ids: [Int32], cardinality: Int) -> (starts: [Int32], rows: [Int32]) {
    var starts = [Int32](repeating: 0, count: cardinality + 1)
    for id in ids where id >= 0 { starts[Int(id) + 1] += 1 }
    for index in 0..<cardinality { starts[index + 1] += starts[index] }
    var fill = starts
    var rows = [Int32](repeating: 0, count: Int(starts[cardinality]))
    for (row, id) in ids.enumerated() where id >= 0 {
      rows[Int(fill[Int(id)])] = Int32(row)
      fill[Int(id)] += 1
    }
    return (starts, rows)
  }
}
