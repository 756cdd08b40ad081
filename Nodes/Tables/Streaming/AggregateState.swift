import FlowRuntime

/// One aggregate of a `GroupByStream`: the running state of `Aggregate.compute` per group,
/// carried from morsel to morsel (see `GroupByStream` for why the results are the kernel's).
struct AggregateState {
  private var counts: [Int64] = []
  private var seen: [Int64] = []
  /// Integer sums while the column is integers (`sum` only), wrapping, with each group's net
  /// carries past `Int64` (as the kernel's: a group whose carries do not cancel is an error).
  private var integerSums: [Int64] = []
  private var carries: [Int64] = []
  private var sawNumbers = false
  /// The Neumaier running sums and error terms, as the kernel's.
  private var sums: [Double] = []
  private var errors: [Double] = []
  /// The picking aggregates: each morsel's picks, and per group the piece and row of its pick.
  private var pieces: [Column] = []
  private var picked: [(piece: Int32, row: Int32)] = []
  private let function: Aggregate.Function

  init(_ function: Aggregate.Function) { self.function = function }

  /// Room for `groupCount` groups (new groups start empty).
  mutating func grow(to groupCount: Int) {
    let extra = groupCount - seen.count
    guard extra > 0 else { return }
    counts.append(contentsOf: repeatElement(0, count: extra))
    seen.append(contentsOf: repeatElement(0, count: extra))
    switch function {
    case .sum, .mean:
      integerSums.append(contentsOf: repeatElement(0, count: extra))
      carries.append(contentsOf: repeatElement(0, count: extra))
      sums.append(contentsOf: repeatElement(0, count: extra))
      errors.append(contentsOf: repeatElement(0, count: extra))
    case .min, .max, .first, .last:
      picked.append(contentsOf: repeatElement((piece: Int32(-1), row: Int32(-1)), count: extra))
    case .count, .countDistinct:
      break
    }
  }

  /// Adds a morsel: `local[row]` is the row's group in the morsel, `global[group]` that
  /// group's number in the whole.
  mutating func add(_ aggregate: Aggregate, column: Column?, local: [Int32], localCount: Int, global: [Int32]) throws {
    guard let column else {
      for group in local { counts[Int(global[Int(group)])] += 1 }
      return
    }
    switch function {
    case .count, .countDistinct:
      preconditionFailure("Internal inconsistency: \(function) streamed with a column")
    case .sum, .mean:
      guard column.isNumeric else {
        throw NodeError("\(function.rawValue)(\(aggregate.column ?? "")) needs numbers, but the column is \(column.type)")
      }
      if case .integer(let values) = column.storage, function == .sum {
        for row in 0..<local.count where column.validity.isValid(row) {
          let group = Int(global[Int(local[row])])
          let (sum, didOverflow) = integerSums[group].addingReportingOverflow(values[row])
          integerSums[group] = sum
          if didOverflow { carries[group] += values[row] < 0 ? -1 : 1 }
        }
      } else {
        sawNumbers = true
      }
      for row in 0..<local.count {
        guard let value = column.number(at: row) else { continue }
        let group = Int(global[Int(local[row])])
        let sum = sums[group], next = sum + value
        errors[group] += NeumaierSum.error(of: sum, plus: value, giving: next)
        sums[group] = next
        seen[group] += 1
      }
    case .min, .max, .first, .last:
      let picks = try aggregate.compute(groups: local, groupCount: localCount, column: column)
      let piece = Int32(pieces.count)
      pieces.append(picks)
      for group in 0..<localCount where !picks.isNull(group) {
        let target = Int(global[group])
        let current = picked[target]
        if current.piece < 0 { picked[target] = (piece, Int32(group)); continue }
        guard function != .first else { continue }
        if function == .last {
          picked[target] = (piece, Int32(group))
          continue
        }
        let order = Self.compare(picks, group, pieces[Int(current.piece)], Int(current.row))
        if function == .max ? order > 0 : order < 0 { picked[target] = (piece, Int32(group)) }
      }
    }
  }

  /// The aggregate's column over `groupCount` groups.
  func column(_ aggregate: Aggregate, groupCount: Int) throws -> Column {
    switch function {
    case .count:
      if aggregate.column == nil { return Column(.integer(counts)) }
      preconditionFailure("Internal inconsistency: count() with a column")
    case .countDistinct:
      preconditionFailure("Internal inconsistency: countDistinct is not streamed")
    case .sum, .mean:
      let present = Validity(seen.lazy.map { $0 > 0 })
      if function == .sum, !sawNumbers {
        // Out of range: the chain runs materialized, where the kernel names the group.
        if carries.contains(where: { $0 != 0 }) { throw CSVMorsels.Fallback() }
        return Column(.integer(integerSums), validity: present)
      }
      var totals = [Double](repeating: 0, count: groupCount)
      for group in 0..<groupCount {
        totals[group] = NeumaierSum.total(sums[group], errors[group])
        if function == .mean, seen[group] > 0 { totals[group] /= Double(seen[group]) }
      }
      return Column(.number(totals), validity: present)
    case .min, .max, .first, .last:
      var starts: [Int32] = []
      var offset: Int32 = 0
      for piece in pieces {
        starts.append(offset)
        offset += Int32(piece.count)
      }
      let all = try Column.concatenating(pieces)
      return all.gathering(picked.map { $0.piece < 0 ? -1 : starts[Int($0.piece)] + $0.row })
    }
  }

  /// Two non-null cells of columns of one type, as `CellOrder` orders them.
  static func compare(_ a: Column, _ i: Int, _ b: Column, _ j: Int) -> Int {
    switch (a.storage, b.storage) {
    case (.integer(let x), .integer(let y)): return x[i] < y[j] ? -1 : (x[i] == y[j] ? 0 : 1)
    case (.number(let x), .number(let y)): return CellOrder.compare(x[i], y[j])
    case (.bool(let x), .bool(let y)): return x[i] == y[j] ? 0 : (x[i] ? 1 : -1)
    case (.string(let x), .string(let y)): return x.compare(i, with: y, j)
    default: return CellOrder.compare(a.number(at: i) ?? 0, b.number(at: j) ?? 0)
    }
  }
}
