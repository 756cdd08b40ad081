extension TableBudget {
  /// The bytes `value` holds in table cells: its columns' values, string bytes and offsets,
  /// and null bitmaps (through the tables' public shape, so new column layouts estimate as
  /// eight bytes a cell); 0 for anything else than a table. Columns shared by tables of
  /// several nodes count once per node: an upper estimate of what dropping one frees.
  ///
  /// - Complexity: O(columns).
  static func tableBytes(of value: Value) -> Int {
    guard case .table(let table) = value else { return 0 }
    var total = 0
    for column in table.columns {
      let count = column.count
      if case .string(let strings) = column.storage {
        total += strings.storageBytes
      } else if column.type == .bool {
        total += count
      } else {
        total += count * 8
      }
      if column.nullCount > 0 { total += (count + 63) / 64 * 8 }
    }
    return total
  }
}
