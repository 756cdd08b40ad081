import FlowRuntime

/// `rollingMin` and `rollingMax`: the least or greatest non-null cell among this row and the
/// `n − 1` before it in the partition, with a monotonic deque of positions.
///
/// Invariant: the deque's positions increase from `head` to the end, all inside the current
/// window, and their cells strictly worsen from head to end (for `rollingMin`: each later
/// cell is greater than the one before), so the head is the window's extreme — the first of
/// equal extremes, as `min`/`max` choose. Each position enters and leaves once: O(rows).
enum WindowExtremes {
  /// Fills `cells[position − offset]` with the row of each position's extreme (-1: none).
  static func rolling(
    _ source: Column, _ rows: [Int32], _ partition: Range<Int>, size: Int, max wantsMax: Bool,
    into cells: inout [Int32], offset: Int
  ) {
    let compare = CellOrder.comparator(for: source)
    var deque: [Int] = []
    deque.reserveCapacity(Swift.min(partition.count, size))
    var head = 0
    for position in partition {
      let row = Int(rows[position])
      if !source.isNull(row) {
        // Drop the cells that the new one beats (strictly: the first of equals stays ahead).
        while deque.count > head {
          let order = compare(Int(rows[deque[deque.count - 1]]), row)
          guard wantsMax ? order < 0 : order > 0 else { break }
          deque.removeLast()
        }
        deque.append(position)
      }
      while head < deque.count && deque[head] <= position - size { head += 1 }
      cells[position - offset] = head < deque.count ? rows[deque[head]] : -1
      // Keep the storage bounded by the window: compact once the dead prefix is large.
      if head > 1024 && head * 2 > deque.count {
        deque.removeFirst(head)
        head = 0
      }
    }
  }
}
