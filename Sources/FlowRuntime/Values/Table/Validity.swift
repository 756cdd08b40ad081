/// Which cells of a column hold a value (valid) and which are null: one bit per row.
///
/// Invariant: `words` is empty when no cell is null (the common case costs no memory), else it
/// holds `(count + 63) / 64` words where bit `i % 64` of word `i / 64` is 1 iff row `i` is valid;
/// bits past `count` are 0. `nullCount` is the number of 0 bits below `count`.
public struct Validity: Sendable, Hashable {
  @usableFromInline var words: [UInt64] = []
  /// The number of rows.
  public private(set) var count = 0
  /// The number of null rows.
  public private(set) var nullCount = 0

  /// A validity of `count` rows, all valid.
  public init(allValid count: Int = 0) { self.count = count }

  /// A validity from one flag per row (`true` = valid).
  public init(_ flags: some Sequence<Bool>) {
    for flag in flags { append(flag) }
  }

  /// A validity of `count` rows where the rows in `nullRows` (increasing) are null.
  ///
  /// - Complexity: O(`count` / 64 + `nullRows.count`).
  public init(count: Int, nullRows: [Int32]) {
    self.count = count
    guard !nullRows.isEmpty else { return }
    words = [UInt64](repeating: ~0, count: (count + 63) / 64)
    let extra = words.count * 64 - count
    if extra > 0 { words[words.count - 1] &>>= UInt64(extra) }
    for row in nullRows {
      let index = Int(row)
      let mask: UInt64 = 1 &<< UInt64(index & 63)
      if words[index &>> 6] & mask != 0 {
        words[index &>> 6] &= ~mask
        nullCount += 1
      }
    }
  }

  /// Whether row `row` holds a value.
  @inlinable public func isValid(_ row: Int) -> Bool {
    words.isEmpty || (words[row &>> 6] &>> UInt64(row & 63)) & 1 == 1
  }

  /// Whether row `row` is null.
  @inlinable public func isNull(_ row: Int) -> Bool { !isValid(row) }

  /// Appends one row.
  public mutating func append(_ valid: Bool) {
    if !valid && words.isEmpty && count > 0 {
      words = [UInt64](repeating: ~0, count: (count + 63) / 64)
      let extra = words.count * 64 - count
      if extra > 0 { words[words.count - 1] &>>= UInt64(extra) }
    }
    if !valid || !words.isEmpty {
      if count & 63 == 0 { words.append(0) }
      if valid { words[count &>> 6] |= 1 &<< UInt64(count & 63) }
    }
    if !valid { nullCount += 1 }
    count += 1
  }

  /// The validity of rows `rows`, in that order; a row of -1 is null. Built a word at a time.
  ///
  /// - Complexity: O(`rows.count`).
  public func gathering(_ rows: [Int32]) -> Validity {
    let total = rows.count
    var gathered = [UInt64](repeating: 0, count: (total + 63) / 64)
    var nulls = 0
    for index in gathered.indices {
      let base = index &<< 6
      let end = Swift.min(64, total - base)
      var word: UInt64 = 0
      for bit in 0..<end {
        let row = Int(rows[base + bit])
        if row >= 0 && isValid(row) { word |= 1 &<< UInt64(bit) }
      }
      nulls += end - word.nonzeroBitCount
      gathered[index] = word
    }
    var result = Validity(allValid: total)
    if nulls > 0 {
      result.words = gathered
      result.nullCount = nulls
    }
    return result
  }

  /// Appends `other`'s rows.
  public mutating func append(contentsOf other: Validity) {
    if other.nullCount == 0 && nullCount == 0 {
      count += other.count
      return
    }
    for row in 0..<other.count { append(other.isValid(row)) }
  }
}

extension Validity {
  /// Equality of the rows (not of the representation).
  public static func == (a: Validity, b: Validity) -> Bool {
    guard a.count == b.count, a.nullCount == b.nullCount else { return false }
    if a.nullCount == 0 { return true }
    return a.words == b.words
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    hasher.combine(nullCount)
  }
}
