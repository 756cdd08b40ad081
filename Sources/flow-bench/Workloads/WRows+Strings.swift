import FlowNodes
import FlowRuntime

/// WRows' string functions: `derive` with `upper(substr(tailnum, 1, 2))` and `len(tailnum)`
/// over the flights-sized table, against the same work written by hand over the column's UTF-8
/// bytes (the floor), measured in the same run.
extension WRows {
  static func strings(_ table: Table, tailnums: [String?]) {
    let column = StringColumn(tailnums.map { $0 ?? "" })
    let present = tailnums.map { $0 != nil }
    var floorPrefixes = StringColumn(), floorLengths: [Int64] = []
    let floor = Harness.measure(inner: 5) { _ in
      let (bytes, offsets) = column.flatLayout
      var prefixes = StringColumn()
      prefixes.reserveCapacity(strings: rows, bytes: 2 * rows)
      var lengths = [Int64](repeating: 0, count: rows)
      var pair: [UInt8] = [0, 0]
      for row in 0..<rows {
        let start = offsets[row], end = offsets[row + 1]
        var scalars: Int64 = 0
        for index in start..<end where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
        lengths[row] = scalars
        // ASCII tail numbers: the first two bytes, upper-cased.
        let count = min(2, end - start)
        for index in 0..<count {
          let byte = bytes[start + index]
          pair[index] = byte >= 0x61 && byte <= 0x7A ? byte ^ 0x20 : byte
        }
        prefixes.append(utf8: pair[0..<count])
      }
      floorPrefixes = prefixes
      floorLengths = lengths
    }
    Harness.emit(
      workload: "WRows", metric: "derive-strings", floor, nodes: rows,
      variant: "floor: loop over the column's UTF-8 bytes", inner: 5, note: "nodes = rows")

    let derivation: JSONObject = [
      "columns": .object(
        JSONObject([
          JSONMember(key: "prefix", value: .string("upper(substr(tailnum, 1, 2))")),
          JSONMember(key: "length", value: .string("len(tailnum)"))
        ]))
    ]
    var derive = graph(table, "derive", derivation)
    let derived = Harness.measure(inner: 5) { _ in
      derive.invalidateAll()
      derive.evaluate()
    }
    let output = derive.value(of: "node", port: "table")?.tableValue
    let prefixes = output.flatMap { table in table.columnNames.firstIndex(of: "prefix").map { table.columns[$0] } }
    let lengths = output.flatMap { table in table.columnNames.firstIndex(of: "length").map { table.columns[$0] } }
    var agree = output?.rowCount == rows
    for row in stride(from: 0, to: rows, by: 997) where agree {
      let prefix = floorPrefixes[row], length = floorLengths[row]
      agree =
        present[row]
        ? prefixes?[row] == .string(prefix) && lengths?[row] == .integer(length)
        : prefixes?[row] == .null
    }
    Harness.check(agree, "WRows derive-strings differs from the floor")
    Harness.emit(
      workload: "WRows", metric: "derive-strings", derived, nodes: rows,
      variant: "derive prefix = upper(substr(tailnum, 1, 2)), length = len(tailnum)", inner: 5,
      note: "nodes = rows")
  }
}
