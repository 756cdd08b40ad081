import FlowRuntime

/// The compensated `sum` and `mean` of `groupBy` per group (Reference.md, "Values and types"),
/// defined so that the serial kernel, the kernel on several threads and a streamed chain (any
/// morsel sizes) give the same bits:
///
/// - the `groupBy`'s input rows are cut into blocks of `blockRows` rows by row index
///   (65,536: `BlockSums.standardBlockRows`), whatever the morsels or threads;
/// - within a block, each group's non-null values are added in row order to a Neumaier sum
///   (`sum`, `compensation`) starting at (0, 0);
/// - each group folds its block sums in block order into a running (`sum`, `error`):
///   `next = sum + blockSum; error += twoSumError(sum, blockSum, next) + blockCompensation;
///   sum = next` (`fold`); the result is `sum + error` (`NeumaierSum.total`), the mean that
///   divided by the group's count of values.
///
/// A block where a group has no value folds (0, 0), which changes nothing (the running sum
/// starts at +0 and a sum of doubles is never -0 unless both are); so a kernel may fold every
/// group at a block's end or only the groups the block touched. A table of at most one block
/// gives exactly one Neumaier sum over its values in row order (the 828 of Reference.md, "Values and types").
///
/// The per-row loop is one group lookup and one Neumaier add into flat arrays (the open
/// block's sums); folding is per block: O(groups) at each block's end while the groups are at
/// most `foldAllGroups`, else O(groups the block touched), tracked per block, not per row.
struct BlockSums: Sendable {
  /// Rows per block of the definition.
  static let standardBlockRows = 65_536
  /// Up to this many groups a block's end folds every group (cheaper than tracking which
  /// groups a block touched); past it, the touched groups are listed per block. Also the
  /// most groups for which whole blocks are summed on worker threads (each block's sums are
  /// then a flat array of `groupCount` entries).
  static let foldAllGroups = 8_192

  let blockRows: Int
  /// The folded sums of the closed blocks, per group.
  private(set) var sums: [Double] = []
  private(set) var errors: [Double] = []
  /// Values added per group (all blocks).
  private(set) var seen: [Int64] = []
  /// The open block's Neumaier sums per group (zero for a group it has not touched).
  private var partSums: [Double] = []
  private var partErrors: [Double] = []
  /// The open block (-1: none).
  private var openBlock = -1
  /// Past `foldAllGroups` groups: the groups the open block touched, and per group the last
  /// block that touched it.
  private var tracking = false
  private var touched: [Int32] = []
  private var tags: [Int32] = []

  init(blockRows: Int = BlockSums.standardBlockRows) {
    self.blockRows = max(1, blockRows)
  }

  var groupCount: Int { seen.count }

  /// Room for `groupCount` groups (new groups start empty).
  mutating func grow(to groupCount: Int) {
    let extra = groupCount - seen.count
    guard extra > 0 else { return }
    let before = seen.count
    sums.append(contentsOf: repeatElement(0, count: extra))
    errors.append(contentsOf: repeatElement(0, count: extra))
    seen.append(contentsOf: repeatElement(0, count: extra))
    partSums.append(contentsOf: repeatElement(0, count: extra))
    partErrors.append(contentsOf: repeatElement(0, count: extra))
    if tracking {
      tags.append(contentsOf: repeatElement(-1, count: extra))
    } else if groupCount > Self.foldAllGroups {
      // From now on the touched groups are listed: the open block may have touched any group so far.
      tracking = true
      tags = [Int32](repeating: -1, count: groupCount)
      if openBlock >= 0 {
        touched = (0..<Int32(before)).map { $0 }
        for group in 0..<before { tags[group] = Int32(truncatingIfNeeded: openBlock) }
      }
    }
  }

  /// Adds the values of `rows` of `column`, all in block `block` (blocks come in order): row
  /// `r`'s group is `groups[r]`, or `map[groups[r]]` when `map` is given.
  mutating func add(_ column: Column, rows: Range<Int>, groups: [Int32], map: [Int32]?, block: Int) {
    if block != openBlock {
      closeBlock()
      openBlock = block
    }
    if tracking { track(rows, groups: groups, map: map, block: block) }
    // Over buffer pointers (`UnsafeBlockSumsLoop`): the plain arrays kept a uniqueness check
    // per row. Each variant has its own loop (the closure is inlined into it).
    if case .number(let values) = column.storage, column.nullCount == 0 {
      // The common case in a tight loop: numbers, no nulls.
      if let map {
        Self.accumulate(rows, &partSums, &partErrors, &seen) { (values[$0], Int(map[Int(groups[$0])])) }
      } else {
        Self.accumulate(rows, &partSums, &partErrors, &seen) { (values[$0], Int(groups[$0])) }
      }
    } else if let map {
      Self.accumulate(rows, &partSums, &partErrors, &seen) { row in
        column.number(at: row).map { ($0, Int(map[Int(groups[row])])) }
      }
    } else {
      Self.accumulate(rows, &partSums, &partErrors, &seen) { row in
        column.number(at: row).map { ($0, Int(groups[row])) }
      }
    }
  }

  /// Adds the integers of the rows `grouped` lists in `tableRows` (block `block`) as each
  /// group's exact integer sum, when that gives the Neumaier steps' own bits: every value and
  /// every open sum within 2^52 in magnitude, every open error +0.0, and the rows few enough that
  /// no partial sum passes 2^53. Each addition is then exact, its error `+0.0` (`(s − (s + v)) +
  /// v` is `−v + v`), so a group's open sum ends at the exact total and its error stays `+0.0`,
  /// whatever the order; `false`, changing nothing, otherwise.
  mutating func addExactly(
    _ values: [Int64], grouped: GroupRows, tableRows: Range<Int>, map: [Int32], block: Int
  ) -> Bool {
    let limit: UInt64 = 1 << 52
    guard !tracking, tableRows.upperBound <= values.count else { return false }
    // A bound on the largest magnitude by one pass of ORs, which vectorizes where a running
    // maximum of 64-bit integers does not: `v ^ (v >> 63)` is `|v|` or `|v| − 1`, so every
    // magnitude is at most their OR plus one (a bound at most twice the largest: a sum that
    // passes it is exact, one that fails goes the Neumaier way, whose bits are the same).
    var bits: UInt64 = 0
    for value in values[tableRows] { bits |= UInt64(bitPattern: value ^ (value >> 63)) }
    let largest = bits + 1
    let (most, overflow) = largest.multipliedReportingOverflow(by: UInt64(tableRows.count))
    guard !overflow, most <= limit else { return false }
    if block == openBlock {
      for group in 0..<seen.count
      where partErrors[group].bitPattern != 0 || !(partSums[group].magnitude <= Double(limit)) {
        return false
      }
    }
    if block != openBlock {
      closeBlock()
      openBlock = block
    }
    for local in 0..<grouped.groupCount {
      let positions = grouped.positions(of: local, in: tableRows)
      guard !positions.isEmpty else { continue }
      let group = Int(map[local])
      partSums[group] += Double(grouped.sum(of: values, at: positions).sum)
      seen[group] += Int64(positions.count)
    }
    return true
  }

  /// `body` over the open sums of `sums` in block `block` side by side, (sum, error) per column
  /// per group, and a count of values per group, written back after it.
  ///
  /// - Precondition: the sums have the same groups, at most `foldAllGroups`.
  static func withOpenSums(
    _ sums: inout [BlockSums], block: Int, _ body: (inout [Double], inout [Int64]) -> Void
  ) {
    let groupCount = sums.first?.groupCount ?? 0
    precondition(
      groupCount <= foldAllGroups && sums.allSatisfy { $0.groupCount == groupCount },
      "Internal inconsistency: fused block sums of different groups")
    var open = [Double](repeating: 0, count: groupCount * sums.count * 2)
    for index in sums.indices {
      if block != sums[index].openBlock {
        sums[index].closeBlock()
        sums[index].openBlock = block
      }
      for group in 0..<groupCount {
        open[(group * sums.count + index) * 2] = sums[index].partSums[group]
        open[(group * sums.count + index) * 2 + 1] = sums[index].partErrors[group]
      }
    }
    var counts = [Int64](repeating: 0, count: groupCount)
    body(&open, &counts)
    for index in sums.indices {
      for group in 0..<groupCount {
        sums[index].partSums[group] = open[(group * sums.count + index) * 2]
        sums[index].partErrors[group] = open[(group * sums.count + index) * 2 + 1]
        sums[index].seen[group] += counts[group]
      }
    }
  }

  /// Notes the groups of `rows` that block `block` had not touched yet.
  private mutating func track(_ rows: Range<Int>, groups: [Int32], map: [Int32]?, block: Int) {
    let tag = Int32(truncatingIfNeeded: block)
    for row in rows {
      let group = map.map { $0[Int(groups[row])] } ?? groups[row]
      if tags[Int(group)] != tag {
        tags[Int(group)] = tag
        touched.append(group)
      }
    }
  }

  /// Folds the open block's sums into the totals (every group, or the touched ones).
  mutating func closeBlock() {
    guard openBlock >= 0 else { return }
    if tracking {
      for group in touched { foldOpen(Int(group)) }
      touched.removeAll(keepingCapacity: true)
    } else {
      for group in 0..<seen.count { foldOpen(group) }
    }
    openBlock = -1
  }

  private mutating func foldOpen(_ group: Int) {
    Self.fold(&sums[group], &errors[group], partSums[group], partErrors[group])
    partSums[group] = 0
    partErrors[group] = 0
  }

  /// Folds a block's sum (`blockSum`, `blockError`) into a running total (`sum`, `error`).
  @inline(__always) static func fold(
    _ sum: inout Double, _ error: inout Double, _ blockSum: Double, _ blockError: Double
  ) {
    let next = sum + blockSum
    error += NeumaierSum.error(of: sum, plus: blockSum, giving: next) + blockError
    sum = next
  }

  /// One whole block's sums, computed apart (on a worker) and folded later in block order.
  struct Part: Sendable {
    var sums: [Double]
    var errors: [Double]
    var counts: [Int64]
  }

  /// The sums of the values of `rows` (one whole block) per group, over `groupCount` groups.
  ///
  /// - Precondition: `groupCount <= foldAllGroups` (the part is a flat array per group).
  static func part(_ column: Column, rows: Range<Int>, groups: [Int32], map: [Int32]?, groupCount: Int) -> Part {
    var block = BlockSums(blockRows: .max)
    block.grow(to: groupCount)
    block.add(column, rows: rows, groups: groups, map: map, block: 0)
    return Part(sums: block.partSums, errors: block.partErrors, counts: block.seen)
  }

  /// Folds the next whole block, summed apart (`part`), after the blocks so far.
  mutating func fold(_ part: Part) {
    closeBlock()
    for group in 0..<min(part.counts.count, seen.count) {
      Self.fold(&sums[group], &errors[group], part.sums[group], part.errors[group])
      seen[group] += part.counts[group]
    }
  }

  /// Each group's sum (its mean if `mean`), null where the group had no value.
  func column(mean: Bool) -> Column {
    var closed = self
    closed.closeBlock()
    var totals = [Double](repeating: 0, count: closed.seen.count)
    for group in totals.indices {
      totals[group] = NeumaierSum.total(closed.sums[group], closed.errors[group])
      if mean, closed.seen[group] > 0 { totals[group] /= Double(closed.seen[group]) }
    }
    return Column(.number(totals), validity: Validity(closed.seen.lazy.map { $0 > 0 }))
  }
}
