import FlowRuntime

/// Which rows of two tables have equal join keys: each row's key id (-1 for a row that can
/// match nothing: a null key cell, or a key the other side lacks — an id with no rows on the
/// other side is as good) and, per key id, the right rows in right order and (when asked for:
/// `right` and `full` joins) the left rows in left order (counting sorts). The smaller side
/// (the right, unless 64-bit keys on a left side of at most half its rows) is hashed once,
/// the other probed in morsels (see `JoinCodes`), so the ids are the same at any worker count.
///
/// Invariants: `leftIDs.count` and `rightIDs.count` are the two tables' row counts; ids are
/// in `0..<cardinality`; the rows of id `k` are `rightRows[rightStarts[k]..<rightStarts[k + 1]]`
/// (ascending) and likewise for the left side when `indexesLeft`.
struct JoinMatches: Sendable {
  let leftIDs: [Int32]
  let rightIDs: [Int32]
  let cardinality: Int
  let rightStarts: [Int32]
  let rightRows: [Int32]
  /// Whether `leftStarts` and `leftRows` were built (`leftMatches(ofRight:)` needs them).
  let indexesLeft: Bool
  let leftStarts: [Int32]
  let leftRows: [Int32]

  /// The matches of `left` and `right` on the key pairs `keys` (each a left column and a right
  /// column).
  ///
  /// - Parameter indexesLeft: whether to index the left rows by id (for `leftMatches`).
  /// - Throws: `NodeError` if a key column is missing or its two sides hold different kinds of
  ///   values.
  /// - Complexity: O(rows × keys), hashing each key cell once; the left side on
  ///   `morsels.workers` threads.
  init(left: Table, right: Table, keys: [JoinKeyPair], indexesLeft: Bool = true, morsels: TableMorsels) throws {
    var ids: (left: [Int32], right: [Int32], cardinality: Int) = ([], [], 0)
    for (position, key) in keys.enumerated() {
      let codes = try JoinCodes.codes(
        left: left.column(at: try TableParameters.column(key.left, in: left, side: "left")),
        right: right.column(at: try TableParameters.column(key.right, in: right, side: "right")),
        name: key.isShared ? key.left : "\(key.left) = \(key.right)", morsels: morsels)
      ids = position == 0 ? codes : JoinCodes.combined(left: ids.left, right: ids.right, with: codes, morsels: morsels)
    }
    leftIDs = ids.left
    rightIDs = ids.right
    cardinality = ids.cardinality
    (rightStarts, rightRows) = Self.rowsByID(rightIDs, cardinality: cardinality)
    self.indexesLeft = indexesLeft
    (leftStarts, leftRows) = indexesLeft ? Self.rowsByID(leftIDs, cardinality: cardinality) : ([], [])
  }

  /// The right rows matching left row `row`, as a range of `rightRows` (empty if none).
  func rightMatches(ofLeft row: Int) -> Range<Int> {
    let id = leftIDs[row]
    guard id >= 0 else { return 0..<0 }
    return Int(rightStarts[Int(id)])..<Int(rightStarts[Int(id) + 1])
  }

  /// The left rows matching right row `row`, as a range of `leftRows` (empty if none).
  ///
  /// - Precondition: `indexesLeft`.
  func leftMatches(ofRight row: Int) -> Range<Int> {
    precondition(indexesLeft, "Internal inconsistency: the left rows of a join were not indexed")
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
