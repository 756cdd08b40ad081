import FlowRuntime

/// Dense integer codes for the cells of key columns, so grouping and joining hash each value
/// once and then work on `Int32`s (DuckDB's group index, polars' categorical codes).
enum ColumnCodes {
  /// One code per row: equal cells share a code (strings when their Unicode scalars are
  /// equal), codes count up from 0 in order of first appearance, and null is a value of its
  /// own (SPEC: a null key is a key of its own).
  ///
  /// - Returns: the codes and how many distinct codes there are.
  static func codes(of column: Column) -> (codes: [Int32], cardinality: Int) {
    var codes = [Int32](repeating: 0, count: column.count)
    var next: Int32 = 0
    var nullCode: Int32 = -1
    func assign<K: Hashable>(_ key: (Int) -> K) {
      var seen: [K: Int32] = [:]
      for row in 0..<column.count {
        if column.isNull(row) {
          if nullCode < 0 { nullCode = next; next += 1 }
          codes[row] = nullCode
          continue
        }
        let k = key(row)
        if let code = seen[k] {
          codes[row] = code
        } else {
          seen[k] = next
          codes[row] = next
          next += 1
        }
      }
    }
    switch column.storage {
    case .integer(let values): assign { values[$0] }
    case .number(let values): assign { normalized(values[$0]) }
    case .bool(let values): assign { values[$0] }
    case .string(let strings):
      if let entries = strings.codes {
        dictionaryCodes(
          entries, entryCount: strings.dictionary!.count, column, into: &codes, next: &next, nullCode: &nullCode)
      } else if !tinyStringCodes(strings, column, into: &codes, next: &next, nullCode: &nullCode) {
        assign { UTF8Key(strings.utf8($0)) }
      }
    }
    return (codes, Int(next))
  }

  /// Codes for the rows of several columns together (a composite key), in order of first
  /// appearance of each combination.
  static func codes(of columns: [Column], rowCount: Int) -> (codes: [Int32], cardinality: Int) {
    guard let first = columns.first else { return ([Int32](repeating: 0, count: rowCount), rowCount > 0 ? 1 : 0) }
    if columns.count > 1, let coded = dictionaryCodes(of: columns, rowCount: rowCount) { return coded }
    var (combined, cardinality) = codes(of: first)
    for column in columns.dropFirst() {
      let (next, nextCardinality) = codes(of: column)
      // Few combinations: a table of them instead of a hash (same codes, same order).
      if cardinality * nextCardinality <= 1 << 20 {
        let pairs = combined
        (combined, cardinality) = numbered(slots: cardinality * nextCardinality, rowCount: rowCount) {
          Int(pairs[$0]) * nextCardinality + Int(next[$0])
        }
        continue
      }
      var ids: [Int64: Int32] = [:]
      var count: Int32 = 0
      for row in 0..<rowCount {
        let key = Int64(combined[row]) * Int64(nextCardinality) + Int64(next[row])
        if let id = ids[key] {
          combined[row] = id
        } else {
          ids[key] = count
          combined[row] = count
          count += 1
        }
      }
      cardinality = Int(count)
    }
    return (combined, cardinality)
  }

  /// Codes for several dictionary-encoded string columns without nulls whose dictionaries
  /// multiply to at most 2^20 entries (TPC-H Q1's `l_returnflag`, `l_linestatus` as Parquet
  /// stores them): each row's combination of entries is a slot of one table, numbered in order
  /// of first appearance in a single pass — the same codes as coding column by column (entries
  /// are equal exactly when their strings are). `nil` for other columns.
  private static func dictionaryCodes(of columns: [Column], rowCount: Int) -> (codes: [Int32], cardinality: Int)? {
    var entries: [[UInt32]] = [], sizes: [Int] = []
    var slots = 1
    for column in columns {
      guard column.nullCount == 0, column.count >= rowCount, case .string(let strings) = column.storage,
        let codes = strings.codes, let dictionary = strings.dictionary
      else { return nil }
      slots *= max(1, dictionary.count)
      guard slots <= 1 << 20 else { return nil }
      entries.append(codes)
      sizes.append(dictionary.count)
    }
    if entries.count == 2 {
      let (left, right, width) = (entries[0], entries[1], sizes[1])
      return numbered(slots: slots, rowCount: rowCount) { Int(left[$0]) * width + Int(right[$0]) }
    }
    return numbered(slots: slots, rowCount: rowCount) { row in
      var slot = 0
      for column in entries.indices { slot = slot * sizes[column] + Int(entries[column][row]) }
      return slot
    }
  }

  /// Each row's `slot` (below `slots`; equal slots, equal keys) numbered in order of first
  /// appearance, through a table of one code per slot: the codes and how many there are.
  @inline(__always)
  private static func numbered(slots: Int, rowCount: Int, _ slot: (Int) -> Int) -> (codes: [Int32], cardinality: Int) {
    var codes = [Int32](repeating: 0, count: rowCount)
    var next: Int32 = 0, nullCode: Int32 = -1
    renumbering(slots: slots, rows: rowCount, nulls: nil, into: &codes, next: &next, nullCode: &nullCode, slot: slot)
    return (codes, Int(next))
  }

  /// A number's bit pattern with -0 as 0 and every NaN as one NaN, so equal numbers hash alike.
  static func normalized(_ value: Double) -> UInt64 {
    if value == 0 { return 0 }
    if value.isNaN { return Double.nan.bitPattern }
    return value.bitPattern
  }

  /// Codes for a dictionary-encoded string column: its codes are small dense integers already
  /// (equal strings, equal codes), renumbered in order of first appearance through a table of
  /// one slot per dictionary entry — no hashing; the same codes as the general path.
  private static func dictionaryCodes(
    _ entries: [UInt32], entryCount: Int, _ column: Column, into codes: inout [Int32],
    next: inout Int32, nullCode: inout Int32
  ) {
    renumbering(slots: entryCount, column, into: &codes, next: &next, nullCode: &nullCode) { Int(entries[$0]) }
  }

  /// Codes for a string column whose strings are at most one byte long (flags such as TPC-H's
  /// `l_returnflag`): a 257-entry table instead of a hash per row; the same codes as the
  /// general path. Returns `false` (touching nothing) for longer strings.
  private static func tinyStringCodes(
    _ strings: StringColumn, _ column: Column, into codes: inout [Int32], next: inout Int32,
    nullCode: inout Int32
  ) -> Bool {
    let offsets = strings.offsets, bytes = strings.bytes
    for row in 0..<strings.count where offsets[row + 1] - offsets[row] > 1 { return false }
    renumbering(slots: 257, column, into: &codes, next: &next, nullCode: &nullCode) { row in
      let start = offsets[row]
      return offsets[row + 1] == start ? 256 : Int(bytes[start])
    }
    return true
  }

  /// Numbers each row's `slot` (below `slots`; equal slots, equal keys) in order of first
  /// appearance after `next`, nulls sharing `nullCode`: the dense-key path of the two above.
  @inline(__always)
  private static func renumbering(
    slots: Int, _ column: Column, into codes: inout [Int32], next: inout Int32,
    nullCode: inout Int32, slot: (Int) -> Int
  ) {
    renumbering(
      slots: slots, rows: column.count, nulls: column.nullCount > 0 ? column : nil, into: &codes, next: &next,
      nullCode: &nullCode, slot: slot)
  }

  /// `renumbering` over `rows` rows, null where `nulls` (if any) is.
  @inline(__always)
  private static func renumbering(
    slots: Int, rows: Int, nulls: Column?, into codes: inout [Int32], next: inout Int32,
    nullCode: inout Int32, slot: (Int) -> Int
  ) {
    var table = [Int32](repeating: -1, count: slots)
    for row in 0..<rows {
      if let nulls, nulls.isNull(row) {
        if nullCode < 0 { nullCode = next; next += 1 }
        codes[row] = nullCode
        continue
      }
      let index = slot(row)
      let code = table[index]
      if code >= 0 {
        codes[row] = code
      } else {
        table[index] = next
        codes[row] = next
        next += 1
      }
    }
  }

}
