import FlowGraph
import FlowNodes
import FlowRuntime

/// The quadratic corners of issue 16 (Reference.md, "Files and limits": nothing in the product is quadratic in a
/// document's size): each is validated, configured and evaluated end to end at *n* and 10 *n*,
/// and may grow at most 20× (quadratic would be ≈ 100×). Every run checks its result. Linear
/// cases measure 6–12× here, but `groupBy` with 20,000–50,000 aggregates measured 8–15.4× on
/// the 2-core machine (thread CPU time; the string-keyed tables of the large size leave the
/// cache), so 15× failed a CI run on noise.
extension W11Linearity {
  static let limitBound = 20.0

  static var limitCases: [Case] {
    let quick = benchSettings.quick
    return [
      Case(name: "derive: chained columns on a 2-row table", size: quick ? 2_000 : 5_000, bound: limitBound) { n in
        let document = deriveDocument(columns: n)
        return {
          let table = evaluate(document, "d")
          Harness.check(table?.columnCount == n + 1, "W11 derive columns")
          let last = table?.column(named: "c\(n - 1)")
          Harness.check(
            last?[0].numberValue == Double(n + 1) && last?[1].numberValue == Double(n + 2), "W11 derive checksum")
        }
      },
      Case(name: "format: distinct placeholders", size: 1_000, bound: limitBound) { n in
        let document = formatDocument(placeholders: n)
        let expected = (0..<n).reduce(0) { $0 + String($1).utf8.count } + n - 1
        return {
          guard let evaluator = try? GraphEvaluator(validating: document, registry: .standard) else {
            return Harness.check(false, "W11 format validates")
          }
          var pass = evaluator
          pass.evaluate()
          Harness.check(pass.value(of: "f", port: "text").map { $0.text.utf8.count } == expected, "W11 format checksum")
        }
      },
      Case(name: "groupBy: aggregates (validate and run)", size: quick ? 2_000 : 5_000, bound: limitBound) { n in
        let document = groupByDocument(aggregates: n)
        return {
          let table = evaluate(document, "g")
          Harness.check(table?.columnCount == n + 1 && table?.rowCount == 2, "W11 groupBy shape")
          let last = table?.column(named: "s\(n - 1)")  // key 1 first: count 2, sum 1 + 1; key 2: count 2, sum 4
          Harness.check(
            last?[0].numberValue == 2 && last?[1].numberValue == (n % 2 == 0 ? 4 : 2), "W11 groupBy checksum")
        }
      },
      Case(name: "join: output rows (10 matches a row)", size: quick ? 10_000 : 20_000, bound: limitBound) { n in
        let document = joinDocument(leftRows: n)
        return {
          let table = evaluate(document, "j")
          Harness.check(table?.rowCount == 10 * n, "W11 join rows")
          Harness.check(table?.column(named: "v")?[10 * n - 1].numberValue == 9, "W11 join checksum")
        }
      }
    ]
  }

  /// Validates, configures and evaluates `document`; the table output of node `id`.
  static func evaluate(_ document: FlowDocument, _ id: String) -> Table? {
    guard var evaluator = try? GraphEvaluator(validating: document, registry: .standard) else { return nil }
    evaluator.evaluate()
    guard case .table(let table)? = evaluator.value(of: id, port: "table") else { return nil }
    return table
  }

  /// `derive` of `columns` columns on the table `a: [1, 2]`: `c0 = a + 1`, `cᵢ = cᵢ₋₁ + 1`.
  static func deriveDocument(columns: Int) -> FlowDocument {
    let entries = (0..<columns).map { JSONMember(key: "c\($0)", value: .string($0 == 0 ? "a + 1" : "c\($0 - 1) + 1")) }
    let rows: [JSONValue] = [.object(["a": .number(1)]), .object(["a": .number(2)])]
    let params = JSONObject([
      JSONMember(key: "columns", value: .object(JSONObject(entries))),
      JSONMember(key: "table", value: .array(rows))
    ])
    return FlowDocument(nodes: [FlowNode(id: "d", data: NodeSpec(kind: "derive", params: params))], edges: [])
  }

  /// `format` joining `placeholders` distinct placeholders with `-`, each set by a param to its
  /// number.
  static func formatDocument(placeholders: Int) -> FlowDocument {
    let template = (0..<placeholders).map { "{p\($0)}" }.joined(separator: "-")
    var members = [JSONMember(key: "template", value: .string(template))]
    members += (0..<placeholders).map { JSONMember(key: "p\($0)", value: .number(Double($0))) }
    return FlowDocument(
      nodes: [FlowNode(id: "f", data: NodeSpec(kind: "format", params: JSONObject(members)))], edges: [])
  }

  /// `groupBy` of a 4-row table by `k` with `aggregates` aggregates, alternately `count()` and
  /// `sum(v)` (`k` and `v` are 1, 2, 1, 2: both give 2 for key 1; key 2 counts 2 and sums 4).
  static func groupByDocument(aggregates: Int) -> FlowDocument {
    let entries = (0..<aggregates).map { JSONMember(key: "s\($0)", value: .string($0 % 2 == 0 ? "count()" : "sum(v)")) }
    let rows: [JSONValue] = [1, 2, 1, 2].map { .object(["k": .number($0), "v": .number(Double($0))]) }
    let params = JSONObject([
      JSONMember(key: "by", value: .array([.string("k")])),
      JSONMember(key: "aggregate", value: .object(JSONObject(entries))),
      JSONMember(key: "table", value: .array(rows))
    ])
    return FlowDocument(nodes: [FlowNode(id: "g", data: NodeSpec(kind: "groupBy", params: params))], edges: [])
  }

  /// An inner `join` of `leftRows` rows (keys 0…99) with 1,000 rows (each key 10 times, `v`
  /// counting 0…9 per key): 10 output rows per left row.
  static func joinDocument(leftRows: Int) -> FlowDocument {
    let left: [JSONValue] = (0..<leftRows).map { .object(["k": .number(Double($0 % 100))]) }
    let right: [JSONValue] = (0..<1_000).map {
      .object(["k": .number(Double($0 % 100)), "v": .number(Double($0 / 100))])
    }
    let params = JSONObject([
      JSONMember(key: "on", value: .array([.string("k")])),
      JSONMember(key: "left", value: .array(left)), JSONMember(key: "right", value: .array(right))
    ])
    return FlowDocument(nodes: [FlowNode(id: "j", data: NodeSpec(kind: "join", params: params))], edges: [])
  }
}
