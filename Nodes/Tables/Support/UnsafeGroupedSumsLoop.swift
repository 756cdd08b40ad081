import FlowRuntime

// The grouped loop of `BlockSums.addGrouped` over buffer pointers: each group's sums in
// registers across its rows (`GroupRows`), instead of a trip through memory per row.
//
// Invariants: the columns are checked to be numbers or integers without nulls; each number
// column is read through the address of its array (borrowed by
// `withPointers` for the loop's duration), and every row `GroupRows` lists lies below its
// `rowCount` (`GroupRows`' invariant: its sort checks the rows it lists), which every column's
// count is checked to reach; `open` is borrowed for the loop and holds `groups × columns × 2` doubles (checked);
// each group is checked against the groups' count before its slots
// `(group × columns + c) × 2 ..< + 2` (inside `open`, as `c < columns`) are read or written;
// the rows of a group are a slice of the listed rows by positions `GroupRows.positions` gives
// (inside the list).

extension BlockSums {
  /// Rows per tile of the grouped loop (at least 64 per group): a tile's values stay in the
  /// cache while each group's rows in it are added.
  static let groupedTileRows = 4_096

  /// The grouped loop of `addGrouped`: for each group of `grouped`, its rows that lie in
  /// `tableRows`, each column's values added in row order to the group's Neumaier sum in `open`
  /// (laid out as in `accumulate`; the morsel's group `g` is group `map[g]` of `open`), and
  /// counted in `counts`. The rows go by tiles of consecutive table rows, every group's rows
  /// of a tile before the next tile (a group's rows are spread over the morsel; a pass over all
  /// of one group's would fetch the columns once per group), an integer column's tile
  /// converted to doubles first. Each group's sums stay in registers across its rows of a tile,
  /// four columns at a time (two `SIMD2`s), then two, then one. The vector steps take each
  /// addition's error by the branch-free two-sum, as `accumulatePairs`; where a finite sum is
  /// left with a non-finite error, that group's columns are added again one at a time by
  /// Neumaier's step from their state before, so the bits are the one-column loop's either way.
  ///
  /// - Precondition: the columns are numbers or integers without nulls, with at least the
  ///   morsel's rows (`grouped.rowCount`); `open` holds
  ///   `counts.count × columns × 2` doubles; the groups of `map` that have rows are distinct
  ///   (each group's rows are then added in row order) and below `counts.count` (checked).
  static func accumulateGrouped(
    _ columns: [Column], grouped: GroupRows, tableRows: Range<Int>, map: [Int32],
    tileRows: Int = groupedTileRows, _ open: inout [Double], _ counts: inout [Int64]
  ) {
    let width = columns.count, groupCount = counts.count, rowCount = grouped.rowCount
    precondition(open.count == groupCount * width * 2, "Internal inconsistency: grouped sums of another size")
    precondition(
      columns.allSatisfy { $0.count >= rowCount && $0.nullCount == 0 && $0.isNumeric }
        && map.count >= grouped.groupCount && tableRows.lowerBound >= 0 && tableRows.upperBound <= rowCount,
      "Internal inconsistency: grouped sums past their columns")
    var mapped = [Bool](repeating: false, count: groupCount)
    // Each group's next position in `grouped.rows` and the end of its rows in `tableRows`.
    var next = [Int](repeating: 0, count: grouped.groupCount), ends = next
    for local in 0..<grouped.groupCount {
      let positions = grouped.positions(of: local, in: tableRows)
      (next[local], ends[local]) = (positions.lowerBound, positions.upperBound)
      guard !positions.isEmpty else { continue }
      let group = Int(map[local])
      precondition(
        UInt(bitPattern: group) < UInt(groupCount) && !mapped[group], "Internal inconsistency: groups mapped twice")
      mapped[group] = true
      counts[group] += Int64(positions.count)
    }
    let tile = max(1, tileRows, grouped.groupCount * 64)
    // Numbers are read where they are; integers through a tile of doubles each, in `scratch`.
    let integerColumns = columns.indices.filter { if case .number = columns[$0].storage { false } else { true } }
    var scratch = [Double](repeating: 0, count: integerColumns.isEmpty ? 0 : tile * integerColumns.count)
    let numbers: [ArraySlice<Double>] = columns.map { column in
      if case .number(let values) = column.storage { return values[...] }
      return [0][...]  // not read: the column's tile is in `scratch`
    }
    withPointers(numbers[...], []) { sources in
      grouped.rows.withUnsafeBufferPointer { rows in
        scratch.withUnsafeMutableBufferPointer { scratch in
          open.withUnsafeMutableBufferPointer { open in
            var start = tableRows.lowerBound
            while start < tableRows.upperBound {
              let end = min(tableRows.upperBound, start + tile)
              // The tile's values: `pointers[c][row - start]`.
              var pointers = sources.map { $0 + start }
              for (position, index) in integerColumns.enumerated() {
                guard case .integer(let integers) = columns[index].storage else { continue }
                let target = scratch.baseAddress! + position * tile
                integers.withUnsafeBufferPointer { integers in
                  for row in start..<end { target[row - start] = Double(integers[row]) }
                }
                pointers[index] = UnsafePointer(target)
              }
              for local in 0..<grouped.groupCount where next[local] < ends[local] {
                let stop = grouped.first(in: next[local]..<ends[local], atLeast: end)
                guard stop > next[local] else { continue }
                let groupRows = UnsafeBufferPointer(rebasing: rows[next[local]..<stop])
                next[local] = stop
                let slots = open.baseAddress! + Int(map[local]) * width * 2
                var column = 0
                while column < width {
                  let step = width - column >= 4 ? 4 : (width - column >= 2 ? 2 : 1)
                  let added: Bool
                  switch step {
                  case 4: added = addFour(pointers, column, groupRows, start, slots + column * 2)
                  case 2: added = addTwo(pointers, column, groupRows, start, slots + column * 2)
                  default: added = false
                  }
                  if !added {
                    for one in column..<(column + step) { addOne(pointers[one], groupRows, start, slots + one * 2) }
                  }
                  column += step
                }
              }
              start = end
            }
          }
        }
      }
    }
  }

  /// Columns `first ..< first + 4` of `rows` (column `c`'s value of row `r` at `columns[c][r - base]`) into the (sum, error) pairs at `slots` by two-sum
  /// steps, in registers; `false`, changing nothing, where a finite sum gets a non-finite error.
  @inline(__always)
  private static func addFour(
    _ columns: [UnsafePointer<Double>], _ first: Int, _ rows: UnsafeBufferPointer<Int32>, _ base: Int,
    _ slots: UnsafeMutablePointer<Double>
  ) -> Bool {
    let a = columns[first], b = columns[first + 1], c = columns[first + 2], d = columns[first + 3]
    var low = SIMD2(slots[0], slots[2]), lowError = SIMD2(slots[1], slots[3])
    var high = SIMD2(slots[4], slots[6]), highError = SIMD2(slots[5], slots[7])
    for row in rows {
      let index = Int(row) - base
      let x = SIMD2(a[index], b[index]), y = SIMD2(c[index], d[index])
      let nextLow = low + x, backLow = nextLow - low
      lowError += (low - (nextLow - backLow)) + (x - backLow)
      low = nextLow
      let nextHigh = high + y, backHigh = nextHigh - high
      highError += (high - (nextHigh - backHigh)) + (y - backHigh)
      high = nextHigh
    }
    guard exact(low, lowError), exact(high, highError) else { return false }
    (slots[0], slots[2], slots[1], slots[3]) = (low[0], low[1], lowError[0], lowError[1])
    (slots[4], slots[6], slots[5], slots[7]) = (high[0], high[1], highError[0], highError[1])
    return true
  }

  /// `addFour` for two columns.
  @inline(__always)
  private static func addTwo(
    _ columns: [UnsafePointer<Double>], _ first: Int, _ rows: UnsafeBufferPointer<Int32>, _ base: Int,
    _ slots: UnsafeMutablePointer<Double>
  ) -> Bool {
    let a = columns[first], b = columns[first + 1]
    var sum = SIMD2(slots[0], slots[2]), error = SIMD2(slots[1], slots[3])
    for row in rows {
      let index = Int(row) - base
      let x = SIMD2(a[index], b[index])
      let next = sum + x, back = next - sum
      error += (sum - (next - back)) + (x - back)
      sum = next
    }
    guard exact(sum, error) else { return false }
    (slots[0], slots[2], slots[1], slots[3]) = (sum[0], sum[1], error[0], error[1])
    return true
  }

  /// One column of `rows` into the (sum, error) pair at `slot` by Neumaier's step.
  @inline(__always)
  private static func addOne(
    _ column: UnsafePointer<Double>, _ rows: UnsafeBufferPointer<Int32>, _ base: Int,
    _ slot: UnsafeMutablePointer<Double>
  ) {
    var sum = slot[0], error = slot[1]
    for row in rows {
      let value = column[Int(row) - base], next = sum + value
      error += NeumaierSum.error(of: sum, plus: value, giving: next)
      sum = next
    }
    (slot[0], slot[1]) = (sum, error)
  }

  /// Whether no finite sum of the lanes has a non-finite error (the two-sum's errors were then
  /// exact, as Neumaier's).
  @inline(__always)
  private static func exact(_ sum: SIMD2<Double>, _ error: SIMD2<Double>) -> Bool {
    !(sum[0].isFinite && !error[0].isFinite) && !(sum[1].isFinite && !error[1].isFinite)
  }
}
