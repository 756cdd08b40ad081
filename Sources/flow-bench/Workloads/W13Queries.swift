import FlowRuntime

/// The two W13 pipelines as flow documents (TPC-H Q1 and Q3 shapes; dates compared as ISO text).
/// `Scripts/compare-engines.sh` runs the same queries in DuckDB, polars and pandas.
enum W13Queries {
  /// Q1: readCSV → filter `l_shipdate <= "1998-09-02"` → derive 2 columns → groupBy 2 keys,
  /// 8 aggregates → sort → writeCSV `q1.csv`.
  static func q1() -> (graph: BenchGraph, stages: [(id: String, name: String)]) {
    var graph = BenchGraph()
    let read = graph.node("readCSV", ["path": "lineitem.csv"])
    let kept = graph.node("filter", ["where": "l_shipdate <= \"1998-09-02\""])
    let derived = graph.node(
      "derive",
      [
        "columns": .object(
          JSONObject([
            JSONMember(key: "disc_price", value: "l_extendedprice * (1 - l_discount)"),
            JSONMember(key: "charge", value: "l_extendedprice * (1 - l_discount) * (1 + l_tax)")
          ]))
      ])
    let groups = graph.node(
      "groupBy",
      [
        "by": ["l_returnflag", "l_linestatus"],
        "aggregate": .object(
          JSONObject([
            JSONMember(key: "sum_qty", value: "sum(l_quantity)"),
            JSONMember(key: "sum_base_price", value: "sum(l_extendedprice)"),
            JSONMember(key: "sum_disc_price", value: "sum(disc_price)"),
            JSONMember(key: "sum_charge", value: "sum(charge)"),
            JSONMember(key: "avg_qty", value: "mean(l_quantity)"),
            JSONMember(key: "avg_price", value: "mean(l_extendedprice)"),
            JSONMember(key: "avg_disc", value: "mean(l_discount)"),
            JSONMember(key: "count_order", value: "count()")
          ]))
      ])
    let sorted = graph.node("sort", ["by": ["l_returnflag", "l_linestatus"]])
    let write = graph.node("writeCSV", ["path": "q1.csv"])
    graph.edge(read, to: kept, "table")
    graph.edge(kept, to: derived, "table")
    graph.edge(derived, to: groups, "table")
    graph.edge(groups, to: sorted, "table")
    graph.edge(sorted, to: write, "table")
    return (
      graph,
      [
        (read, "readCSV lineitem"), (kept, "filter"), (derived, "derive"), (groups, "groupBy"),
        (sorted, "sort"), (write, "writeCSV")
      ]
    )
  }

  /// Q3: customers in BUILDING, their orders before 1995-03-15, those orders' lines shipped
  /// after it; revenue per order, the 10 largest → writeCSV `q3.csv`. `join` matches equal
  /// names, so two `select`s rename the keys.
  static func q3() -> (graph: BenchGraph, stages: [(id: String, name: String)]) {
    var graph = BenchGraph()
    let customer = graph.node("readCSV", ["path": "customer.csv"])
    let building = graph.node("filter", ["where": "c_mktsegment == \"BUILDING\""])
    let customerKeys = graph.node("select", ["columns": ["c_custkey as o_custkey"]])
    let orders = graph.node("readCSV", ["path": "orders.csv"])
    let early = graph.node("filter", ["where": "o_orderdate < \"1995-03-15\""])
    let ordered = graph.node("join", ["on": ["o_custkey"]])
    let orderKeys = graph.node("select", ["columns": ["o_orderkey as l_orderkey", "o_orderdate", "o_shippriority"]])
    let lines = graph.node("readCSV", ["path": "lineitem.csv"])
    let late = graph.node("filter", ["where": "l_shipdate > \"1995-03-15\""])
    let joined = graph.node("join", ["on": ["l_orderkey"]])
    let derived = graph.node(
      "derive",
      [
        "columns": .object(
          JSONObject([
            JSONMember(key: "volume", value: "l_extendedprice * (1 - l_discount)")
          ]))
      ])
    let groups = graph.node(
      "groupBy",
      [
        "by": ["l_orderkey", "o_orderdate", "o_shippriority"],
        "aggregate": .object(
          JSONObject([
            JSONMember(key: "revenue", value: "sum(volume)")
          ]))
      ])
    let sorted = graph.node("sort", ["by": ["-revenue", "o_orderdate"]])
    let top = graph.node("limit", ["count": 10])
    let write = graph.node("writeCSV", ["path": "q3.csv"])
    graph.edge(customer, to: building, "table")
    graph.edge(building, to: customerKeys, "table")
    graph.edge(orders, to: early, "table")
    graph.edge(early, to: ordered, "left")
    graph.edge(customerKeys, to: ordered, "right")
    graph.edge(ordered, to: orderKeys, "table")
    graph.edge(lines, to: late, "table")
    graph.edge(late, to: joined, "left")
    graph.edge(orderKeys, to: joined, "right")
    graph.edge(joined, to: derived, "table")
    graph.edge(derived, to: groups, "table")
    graph.edge(groups, to: sorted, "table")
    graph.edge(sorted, to: top, "table")
    graph.edge(top, to: write, "table")
    return (
      graph,
      [
        (customer, "readCSV customer"), (building, "filter customer"), (customerKeys, "select customer"),
        (orders, "readCSV orders"), (early, "filter orders"), (ordered, "join orders"), (orderKeys, "select orders"),
        (lines, "readCSV lineitem"), (late, "filter lineitem"), (joined, "join lineitem"), (derived, "derive"),
        (groups, "groupBy"), (sorted, "sort"), (top, "limit"), (write, "writeCSV")
      ]
    )
  }
}
