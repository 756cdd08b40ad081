import FlowRuntime

/// One key of a `join`: the left table's column and the right table's column whose values must
/// be equal. An `on` entry is a column name in both tables (`"c_custkey"`) or a pair written
/// `"left = right"` (`"l_orderkey = o_orderkey"`: the left table's column, then the right's).
struct JoinKeyPair: Sendable, Hashable {
  /// The column of the left table.
  let left: String
  /// The column of the right table.
  let right: String

  /// Whether both sides name the same column (a key the output holds once, merged).
  var isShared: Bool { left == right }

  /// The two names of an `on` entry read without the tables: the sides of its first `=`
  /// (spaces around them dropped), or the entry itself twice when it has no `=` or a side
  /// would be empty.
  init(parsing entry: String) {
    if let equals = entry.firstIndex(of: "=") {
      let left = String(entry[..<equals]).trimmingSpaces,
        right = String(entry[entry.index(after: equals)...]).trimmingSpaces
      if !left.isEmpty && !right.isEmpty {
        self.left = left
        self.right = right
        return
      }
    }
    left = entry
    right = entry
  }

  init(left: String, right: String) {
    self.left = left
    self.right = right
  }

  /// The key pairs of `entries` (the `on` param) for these tables: an entry that names a
  /// column in both tables is that column (so a name holding `=` keeps its meaning), any other
  /// is read by ``init(parsing:)``.
  ///
  /// - Complexity: O(entries × (columns + entry length)).
  static func resolved(_ entries: [String], left: Table, right: Table) -> [JoinKeyPair] {
    entries.map { entry in
      left.columnIndex(named: entry) != nil && right.columnIndex(named: entry) != nil
        ? JoinKeyPair(left: entry, right: entry) : JoinKeyPair(parsing: entry)
    }
  }
}
