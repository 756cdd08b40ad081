import FlowNodes
import FlowRuntime
import FlowTestSupport

/// WRows: row formulas over a flights-sized table (336,776 rows): `filter` with a numeric and a
/// string comparison, and `derive` with arithmetic and a comparison, each against a hand-written
/// loop over the same typed arrays (the floor), and `derive` with string functions against a loop
/// over the column's UTF-8 bytes (`WRows+Strings.swift`). Full evaluation of `source → node`; the metric is
/// ns per row.
enum WRows {
  static let rows = 336_776

  /// `tableInput`: passes on the table set on its unconnected input.
  struct TableInput: StaticNodeKind {
    var name: String { "tableInput" }
    var summary: String { "table = input table" }
    var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
    var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
  }

  static func run() async throws {
    var random = SeededRandom(seed: 9)
    let carriers = ["UA", "AA", "B6", "DL", "EV", "MQ", "US", "WN", "VX", "FL", "AS", "9E", "F9", "HA", "YV", "OO"]
    var delays: [Int64?] = [], distances: [Double?] = [], airTimes: [Double?] = [], carrierCells: [String?] = []
    var tailnums: [String?] = []
    for _ in 0..<rows {
      let missing = random.next() % 40 == 0
      delays.append(missing ? nil : Int64(random.next() % 200) - 20)
      distances.append(Double(random.next() % 4900 + 100))
      airTimes.append(missing ? nil : Double(random.next() % 600 + 20))
      carrierCells.append(carriers[Int(random.next() % 16)])
      tailnums.append(missing ? nil : "N\(random.next() % 900 + 100)\(carriers[Int(random.next() % 16)])")
    }
    let table: Table
    do {
      table = try Table([
        ("dep_delay", .integers(delays)), ("distance", .numbers(distances)),
        ("air_time", .numbers(airTimes)), ("carrier", .strings(carrierCells)),
        ("tailnum", .strings(tailnums))
      ])
    } catch {
      fatalError("WRows table: \(error)")
    }

    // Floor: the same filter as a loop over the arrays.
    var floorKept = 0
    let floor = Harness.measure(inner: 5) { _ in
      var selection: [Int32] = []
      for row in 0..<rows {
        if let delay = delays[row], delay > 60, carrierCells[row] == "UA" { selection.append(Int32(row)) }
      }
      floorKept = selection.count
    }
    Harness.emit(
      workload: "WRows", metric: "filter", floor, nodes: rows, variant: "floor: loop over Swift arrays",
      inner: 5, note: "nodes = rows")

    var filter = graph(table, "filter", ["where": .string("dep_delay > 60 and carrier == \"UA\"")])
    let filtered = Harness.measure(inner: 5) { _ in
      filter.invalidateAll()
      filter.evaluate()
    }
    let kept = filter.value(of: "node", port: "table")?.tableValue?.rowCount
    Harness.check(kept == floorKept, "WRows filter kept \(String(describing: kept)), floor \(floorKept)")
    Harness.emit(
      workload: "WRows", metric: "filter", filtered, nodes: rows,
      variant: "filter \"dep_delay > 60 and carrier == \\\"UA\\\"\"", inner: 5,
      note: "nodes = rows; kept \(floorKept)")

    let derivation: JSONObject = [
      "columns": .object(
        JSONObject([
          JSONMember(key: "speed", value: .string("distance / (air_time / 60)")),
          JSONMember(key: "late", value: .string("dep_delay > 15"))
        ]))
    ]
    var derive = graph(table, "derive", derivation)
    let derived = Harness.measure(inner: 5) { _ in
      derive.invalidateAll()
      derive.evaluate()
    }
    let output = derive.value(of: "node", port: "table")?.tableValue
    Harness.check(
      output?.columnNames == ["dep_delay", "distance", "air_time", "carrier", "tailnum", "speed", "late"]
        && output?.rowCount == rows, "WRows derive")
    Harness.emit(
      workload: "WRows", metric: "derive", derived, nodes: rows,
      variant: "derive speed = distance / (air_time / 60), late = dep_delay > 15", inner: 5,
      note: "nodes = rows")
    runDates()
    strings(table, tailnums: tailnums)
  }

  static func graph(_ table: Table, _ kind: String, _ params: JSONObject) -> GraphEvaluator {
    var registry = NodeKindRegistry.standard
    registry.register(TableInput())
    var graph = BenchGraph()
    graph.document.nodes = [
      FlowNode(id: "source", data: NodeSpec(kind: "tableInput")),
      FlowNode(id: "node", data: NodeSpec(kind: kind, params: params))
    ]
    graph.edge("source", to: "node", "table")
    do {
      var evaluator = try GraphEvaluator(validating: graph.document, registry: registry)
      guard let input = evaluator.input("source", "table") else { fatalError("WRows: no source input") }
      try evaluator.setUnconnectedInput(input, to: .table(table))
      return evaluator
    } catch {
      fatalError("WRows graph is invalid: \(error)")
    }
  }
}
