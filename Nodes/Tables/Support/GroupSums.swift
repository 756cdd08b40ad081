import Dispatch
import FlowRuntime

/// Compensated sums per group over row blocks — the `sum` and `mean` of `groupBy` (SPEC §5
/// "Sums are compensated"), defined so that the work can be split across cores and still give
/// the same bits whatever the split:
///
/// - rows are cut into blocks of `blockRows` by their index in the table (not by worker);
/// - within a block, each group's values are added in row order to a Neumaier sum that starts
///   at zero (`part`);
/// - each group's block sums are folded into its running total in block order (`fold`).
///
/// The kernel (`Aggregate.compute`) computes the blocks on several threads and folds them in
/// block order; the streamed `groupBy` (`AggregateState`) adds its morsels' rows serially,
/// folding a group's block sum when the group next appears in a later block: the same
/// additions in the same order, so the same bits, at 1, 2 or 7 workers, streamed or not.
/// A table of one block gives exactly the single running Neumaier sum.
///
/// - Complexity: O(rows) adds; O(groups) memory, plus, split (at most `splitGroups` groups),
///   one entry per group per block it appears in.
struct GroupSums {
  /// Rows per block.
  static let blockRows = 1 << 16
  /// The most groups whose blocks are summed on several threads.
  static let splitGroups = 4_096

  /// The totals of the folded blocks.
  private(set) var sums: [Double] = []
  private(set) var errors: [Double] = []
  /// Values added per group.
  private(set) var seen: [Int64] = []
  /// The open block sum of each group, and its block (-1: none).
  private var partSums: [Double] = []
  private var partErrors: [Double] = []
  private var partBlocks: [Int] = []

  /// Room for `groupCount` groups.
  mutating func grow(to groupCount: Int) {
    let extra = groupCount - seen.count
    guard extra > 0 else { return }
    sums.append(contentsOf: repeatElement(0, count: extra))
    errors.append(contentsOf: repeatElement(0, count: extra))
    seen.append(contentsOf: repeatElement(0, count: extra))
    partSums.append(contentsOf: repeatElement(0, count: extra))
    partErrors.append(contentsOf: repeatElement(0, count: extra))
    partBlocks.append(contentsOf: repeatElement(-1, count: extra))
  }

  /// Adds `value` of table row `row` to `group`.
  @inline(__always) mutating func add(_ value: Double, group: Int, row: Int) {
    let block = row / Self.blockRows
    if partBlocks[group] != block {
      foldPart(group)
      partBlocks[group] = block
    }
    let sum = partSums[group], next = sum + value
    partErrors[group] += NeumaierSum.error(of: sum, plus: value, giving: next)
    partSums[group] = next
    seen[group] += 1
  }

  /// Folds `group`'s open block sum into its total.
  private mutating func foldPart(_ group: Int) {
    guard partBlocks[group] >= 0 else { return }
    Self.fold(&sums[group], &errors[group], partSums[group], partErrors[group])
    partSums[group] = 0
    partErrors[group] = 0
    partBlocks[group] = -1
  }

  /// Folds a block sum (`partSum`, `partError`) into a total (`sum`, `error`).
  @inline(__always) static func fold(_ sum: inout Double, _ error: inout Double, _ partSum: Double, _ partError: Double) {
    let next = sum + partSum
    error += NeumaierSum.error(of: sum, plus: partSum, giving: next) + partError
    sum = next
  }

  /// Adds `value` of block `block` to `group` (`add`'s loop body).
  @inline(__always) private static func accumulate(_ value: Double, _ group: Int, _ block: Int,
                                                   _ sums: inout [Double], _ errors: inout [Double], _ seen: inout [Int64],
                                                   _ partSums: inout [Double], _ partErrors: inout [Double], _ partBlocks: inout [Int]) {
    if partBlocks[group] != block {
      if partBlocks[group] >= 0 {
        fold(&sums[group], &errors[group], partSums[group], partErrors[group])
        partSums[group] = 0
        partErrors[group] = 0
      }
      partBlocks[group] = block
    }
    let sum = partSums[group], next = sum + value
    partErrors[group] += NeumaierSum.error(of: sum, plus: value, giving: next)
    partSums[group] = next
    seen[group] += 1
  }

  /// Adds `value` to `group`'s open block sum (`add`'s loop for few groups).
  @inline(__always) private static func accumulate(_ value: Double, _ group: Int, _ partSums: inout [Double],
                                                   _ partErrors: inout [Double], _ seen: inout [Int64]) {
    let sum = partSums[group], next = sum + value
    partErrors[group] += NeumaierSum.error(of: sum, plus: value, giving: next)
    partSums[group] = next
    seen[group] += 1
  }

  /// Adds `value` to a block's entries (`of`'s loop body): `slot[group]` is the group's entry, or -1.
  @inline(__always) private static func accumulate(_ value: Double, _ group: Int, _ entries: inout [BlockEntry], _ slot: inout [Int32]) {
    var index = Int(slot[group])
    if index < 0 {
      index = entries.count
      slot[group] = Int32(index)
      entries.append(BlockEntry(group: Int32(group)))
    }
    let sum = entries[index].sum, next = sum + value
    entries[index].error += NeumaierSum.error(of: sum, plus: value, giving: next)
    entries[index].sum = next
    entries[index].count += 1
  }

  /// Each group's compensated sum (its mean if `mean`), null where it saw no value.
  func column(mean: Bool) -> Column {
    var totals = [Double](repeating: 0, count: seen.count)
    for group in 0..<seen.count {
      var sum = sums[group], error = errors[group]
      if partBlocks[group] >= 0 { Self.fold(&sum, &error, partSums[group], partErrors[group]) }
      totals[group] = NeumaierSum.total(sum, error)
      if mean, seen[group] > 0 { totals[group] /= Double(seen[group]) }
    }
    return Column(.number(totals), validity: Validity(seen.lazy.map { $0 > 0 }))
  }

  /// The sums of `column` (numeric) per group over a whole table, its blocks computed on up to
  /// `workers` threads (each block's sums whole, on one thread) and folded in block order.
  static func of(_ column: Column, groups: [Int32], groupCount: Int, workers: Int) -> GroupSums {
    var result = GroupSums()
    result.grow(to: groupCount)
    let rows = groups.count
    let blocks = (rows + blockRows - 1) / blockRows
    let threads = Swift.max(1, Swift.min(workers, blocks))
    // Split only for few groups: the block entries then stay small (at most `splitGroups`
    // per block); many groups sum serially, in O(groups) memory. The same bits either way.
    guard threads > 1, groupCount <= splitGroups else {
      result.add(column, groups: groups, firstRow: 0)
      return result
    }
    // Each thread takes a run of blocks; per block, the groups it touched in order of first
    // touch, with their block sums.
    let ranges = (0..<threads).map { (($0 * blocks) / threads)..<((($0 + 1) * blocks) / threads) }
    let computed = TableParallelism.map(threads, cells: rows) { part -> [[BlockEntry]] in
      var slot = [Int32](repeating: -1, count: groupCount)
      var out: [[BlockEntry]] = []
      for block in ranges[part] {
        var entries: [BlockEntry] = []
        let start = block * blockRows, end = Swift.min(rows, start + blockRows)
        if case .number(let values) = column.storage, column.nullCount == 0 {
          for row in start..<end { accumulate(values[row], Int(groups[row]), &entries, &slot) }
        } else {
          for row in start..<end {
            guard let value = column.number(at: row) else { continue }
            accumulate(value, Int(groups[row]), &entries, &slot)
          }
        }
        for entry in entries { slot[Int(entry.group)] = -1 }
        out.append(entries)
      }
      return out
    }
    for part in computed {
      for entries in part {
        for entry in entries {
          let group = Int(entry.group)
          fold(&result.sums[group], &result.errors[group], entry.sum, entry.error)
          result.seen[group] += entry.count
        }
      }
    }
    return result
  }

  /// Adds each value of `column` (row `row` is row `firstRow + row` of the table, in group
  /// `groups[row]`), in row order. The arrays are moved into locals for the loop, so each is
  /// uniquely referenced there (no copy-on-write check per row).
  mutating func add(_ column: Column, groups: [Int32], firstRow: Int) {
    var sums: [Double] = [], errors: [Double] = [], seen: [Int64] = []
    var partSums: [Double] = [], partErrors: [Double] = [], partBlocks: [Int] = []
    swap(&sums, &self.sums)
    swap(&errors, &self.errors)
    swap(&seen, &self.seen)
    swap(&partSums, &self.partSums)
    swap(&partErrors, &self.partErrors)
    swap(&partBlocks, &self.partBlocks)
    let rows = Swift.min(groups.count, column.count)
    var dense: [Double]?
    if case .number(let values) = column.storage, column.nullCount == 0 { dense = values }
    if partBlocks.count <= Self.splitGroups {
      // Few groups: the rows of one block at a time in the plain Neumaier loop (three arrays,
      // as a single running sum); the bookkeeping of the open block sums per segment, O(groups).
      var start = 0
      // Its own buffer (`before = seen` would share `seen`'s, and the loop's writes to `seen`
      // would then check uniqueness on every row).
      var before = [Int64](repeating: 0, count: seen.count)
      while start < rows {
        let block = (firstRow + start) / Self.blockRows
        let end = Swift.min(rows, (block + 1) * Self.blockRows - firstRow)
        for group in partBlocks.indices where partBlocks[group] >= 0 && partBlocks[group] != block {
          Self.fold(&sums[group], &errors[group], partSums[group], partErrors[group])
          partSums[group] = 0
          partErrors[group] = 0
          partBlocks[group] = -1
        }
        for group in seen.indices { before[group] = seen[group] }
        if let dense {
          for row in start..<end { Self.accumulate(dense[row], Int(groups[row]), &partSums, &partErrors, &seen) }
        } else {
          for row in start..<end {
            guard let value = column.number(at: row) else { continue }
            Self.accumulate(value, Int(groups[row]), &partSums, &partErrors, &seen)
          }
        }
        for group in partBlocks.indices where seen[group] != before[group] { partBlocks[group] = block }
        start = end
      }
    } else {
      // Many groups: each group's open block sum folded when the group next appears.
      // (A static function over `inout` arrays, not a closure: captured locals would be boxed
      // and checked for exclusive access on every row.)
      for row in 0..<rows {
        let value: Double
        if let dense { value = dense[row] } else if let present = column.number(at: row) { value = present } else { continue }
        Self.accumulate(value, Int(groups[row]), (firstRow + row) / Self.blockRows,
                        &sums, &errors, &seen, &partSums, &partErrors, &partBlocks)
      }
    }
    swap(&sums, &self.sums)
    swap(&errors, &self.errors)
    swap(&seen, &self.seen)
    swap(&partSums, &self.partSums)
    swap(&partErrors, &self.partErrors)
    swap(&partBlocks, &self.partBlocks)
  }

  /// One group's sum over one block.
  struct BlockEntry: Sendable {
    var group: Int32
    var sum = 0.0
    var error = 0.0
    var count: Int64 = 0

    init(group: Int32) { self.group = group }
  }
}
