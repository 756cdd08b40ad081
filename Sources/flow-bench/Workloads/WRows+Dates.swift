import FlowNodes
import FlowRuntime
import FlowTestSupport

/// WRows, the date row: `derive` with `year(time_hour)` over a flights-shaped `time_hour`
/// column (`2013-MM-DD HH:00:00`, as nycflights13 writes it; 1 in 40 null) against a loop written
/// by hand over the column's UTF-8 bytes that reads the four year digits of each row (the
/// floor, measured in the same run). The formula also checks each whole text is a date.
extension WRows {
  static func runDates() {
    var random = SeededRandom(seed: 13)
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
      let (bytes, offsets) = texts.flatLayout, validity = column.validity
      var years = [Int64](repeating: 0, count: rows)
      for row in 0..<rows where validity.isValid(row) {
        let start = offsets[row]
        var year: Int64 = 0
        for index in start..<(start + 4) { year = year * 10 + Int64(bytes[index] &- 48) }
        years[row] = year
      }
      floorSum = years.reduce(0, &+)
    }
    Harness.emit(
      workload: "WRows", metric: "derive year", floor, nodes: rows,
      variant: "floor: loop over the column's UTF-8 bytes", inner: 5, note: "nodes = rows")

    // Floor doing the formula's work by hand: each text checked to be `YYYY-MM-DD hh:mm:ss`
    // (ranges and the month's length included), then its year read; a bad text stops the loop.
    var checkedSum: Int64 = 0
    let checked = Harness.measure(inner: 5) { _ in
      let (bytes, offsets) = texts.flatLayout, validity = column.validity
      var years = [Int64](repeating: 0, count: rows)
      for row in 0..<rows where validity.isValid(row) {
        guard let year = checkedYear(bytes, from: offsets[row], to: offsets[row + 1]) else {
          fatalError("WRows date floor: row \(row) is not a date")
        }
        years[row] = year
      }
      checkedSum = years.reduce(0, &+)
    }
    Harness.check(checkedSum == floorSum, "WRows checked date floor: \(checkedSum) vs \(floorSum)")
    Harness.emit(
      workload: "WRows", metric: "derive year", checked, nodes: rows,
      variant: "floor: the same check and year by hand over the bytes", inner: 5, note: "nodes = rows")

    let derivation: JSONObject = [
      "columns": .object(JSONObject([JSONMember(key: "y", value: .string("year(time_hour)"))]))
    ]
    var derive = graph(table, "derive", derivation)
    let derived = Harness.measure(inner: 5) { _ in
      derive.invalidateAll()
      derive.evaluate()
    }
    let output = derive.value(of: "node", port: "table")?.tableValue
    var sum: Int64 = 0
    if case .integer(let years)? = output?.column(named: "y")?.storage { sum = years.reduce(0, &+) }
    Harness.check(
      sum == floorSum && output?.rowCount == rows,
      "WRows derive year: sum \(sum), floor \(floorSum) (\(derive.failure(of: "node") ?? "no failure"))")
    Harness.emit(
      workload: "WRows", metric: "derive year", derived, nodes: rows,
      variant: "derive y = year(time_hour)", inner: 5, note: "nodes = rows")
  }

  /// The year of `YYYY-MM-DD` or `YYYY-MM-DD hh:mm:ss` (space or `T`) in `bytes[start..<end]`,
  /// or `nil` if the text is not such a date and time (the hand-written floor of `year`).
  @inline(__always)
  static func checkedYear(_ bytes: [UInt8], from start: Int, to end: Int) -> Int64? {
    let count = end - start
    guard count == 10 || count == 19 else { return nil }
    func digits(_ at: Int, _ length: Int) -> Int? {
      var value = 0
      for index in (start + at)..<(start + at + length) {
        let digit = Int(bytes[index]) &- 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard bytes[start + 4] == 0x2D, bytes[start + 7] == 0x2D, let year = digits(0, 4), let month = digits(5, 2),
      let day = digits(8, 2), (1...12).contains(month)
    else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let length = month == 2 ? (leap ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
    guard day >= 1 && day <= length else { return nil }
    if count == 19 {
      guard bytes[start + 10] == 0x20 || bytes[start + 10] == 0x54, bytes[start + 13] == 0x3A,
        bytes[start + 16] == 0x3A,
        let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
        hour < 24, minute < 60, second < 60
      else { return nil }
    }
    return Int64(year)
  }
}
