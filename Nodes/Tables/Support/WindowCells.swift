import FlowRuntime

/// The cells a window function computes for consecutive positions of a `WindowOrder`, in one
/// of three forms: exact integers, numbers, or rows of the source column to copy.
///
/// Invariants: the arrays of one case have equal lengths; in `.rows`, `-1` is a null cell and
/// `-2` the function's default (`lag`/`lead` past the partition's edge).
enum WindowCells: Sendable {
  case integers([Int64], valid: [Bool])
  case numbers([Double], valid: [Bool])
  case rows([Int32])

  /// The column of the whole table: `runs` (in position order) scattered back to input rows.
  ///
  /// - Parameters:
  ///   - rows: the positions' input rows (`WindowOrder.rows`).
  ///   - source: the column the `.rows` cells copy from.
  ///   - fallback: the value of a `-2` cell.
  /// - Throws: `NodeError` when `fallback` does not fit the source's type (naming both).
  static func column(
    _ runs: [WindowCells], rows: [Int32], source: Column?, fallback: Value,
    describe: () -> String
  ) throws -> Column {
    let count = rows.count
    switch runs.first {
    case .integers?:
      var values = [Int64](repeating: 0, count: count), valid = [Bool](repeating: false, count: count)
      var position = 0
      for case .integers(let run, let flags) in runs {
        for index in run.indices {
          values[Int(rows[position])] = run[index]
          valid[Int(rows[position])] = flags[index]
          position += 1
        }
      }
      return Column(.integer(values), validity: Validity(valid))
    case .numbers?:
      var values = [Double](repeating: 0, count: count), valid = [Bool](repeating: false, count: count)
      var position = 0
      for case .numbers(let run, let flags) in runs {
        for index in run.indices {
          values[Int(rows[position])] = run[index]
          valid[Int(rows[position])] = flags[index]
          position += 1
        }
      }
      return Column(.number(values), validity: Validity(valid))
    case .rows?, nil:
      var gather = [Int32](repeating: -1, count: count)
      var position = 0
      var usesFallback = false
      for case .rows(let run) in runs {
        for cell in run {
          gather[Int(rows[position])] = cell
          usesFallback = usesFallback || cell == -2
          position += 1
        }
      }
      guard let source else { return .nulls(.integer, count: count) }
      if fallback.isNull || !usesFallback {
        return source.gathering(gather.map { Swift.max($0, -1) })
      }
      return try filled(source, gather, fallback, describe: describe)
    }
  }

  /// `source` gathered at `gather`, with `fallback` where `gather` is `-2`.
  private static func filled(
    _ source: Column, _ gather: [Int32], _ fallback: Value,
    describe: () -> String
  ) throws -> Column {
    var type = source.type
    switch (source.type, fallback) {
    case (.integer, .integer), (.number, .number), (.bool, .bool), (.string, .string): break
    case (.number, .integer): break
    case (.integer, .number): type = .number
    default:
      throw NodeError("\(describe()): the default \(fallback) is \(fallback.typeName) but the column is \(source.type)")
    }
    var builder = ColumnBuilder(type, capacity: gather.count)
    for row in gather {
      if row >= 0 {
        builder.append(from: source, row: Int(row))  // an integer cell into a number column converts
      } else if row == -1 {
        builder.appendNull()
      } else {
        do { try builder.append(fallback) } catch { throw NodeError("\(describe()): \(error.message)") }
      }
    }
    return builder.build()
  }
}
