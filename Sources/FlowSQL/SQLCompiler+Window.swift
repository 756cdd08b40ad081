import FlowNodes
import FlowRuntime

/// `window` and `unpivot`. A window column is a SQL window function over `PARTITION BY` the
/// keys, ordered by the `orderBy` keys then the row number (ties in input order), with an
/// explicit `ROWS` frame; an entry that reads a column an earlier entry added gets a helper
/// relation (as `derive` does). `unpivot` is a `UNION ALL` of one `SELECT` per listed column,
/// numbered by (input row, column position). `pivot` has no SQL form: its columns are the
/// distinct values of a column, known only when the data is read.
extension SQLCompiler {
  mutating func window(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    let partitionBy = try strings(id, params, "partitionBy"), orderBy = try strings(id, params, "orderBy")
    guard let entries = params["columns"]?.objectValue else {
      throw SQLExportError(node: id, "param 'columns' must be a record")
    }
    let index = input.index
    var partition = ""
    for key in partitionBy {
      guard index[key] != nil else { throw missing(id, key, input) }
      partition += (partition.isEmpty ? "PARTITION BY " : ", ") + q(key)
    }
    let rowsOrder = orderBy.isEmpty ? row : try orderKeys(id, orderBy, input)
    // The peers' order (`rank`): the keys without the row number.
    let peerOrder = orderBy.isEmpty ? "" : String(rowsOrder.dropLast(row.count + 2))
    let keys = Set(partitionBy + orderBy.map { $0.hasPrefix("-") && index[$0] == nil ? String($0.dropFirst()) : $0 })
    var current = input
    var layer: [String?] = Array(repeating: nil, count: input.columns.count)
    var columns = input.columns, types = input.types
    var layerIndex = index
    var defined: Set<String> = []
    func flush(_ name: String) -> SQLRelation {
      var select = "SELECT \(row)"
      for (position, column) in columns.enumerated() {
        select += ", " + (layer[position].map { "\($0) AS \(q(column))" } ?? q(column))
      }
      return add(name, select + " FROM \(q(current.name))", columns, types)
    }
    for member in entries.members {
      guard let text = member.value.stringValue else {
        throw SQLExportError(node: id, "param 'columns': '\(member.key)' must be a string")
      }
      let function: WindowFunction
      switch WindowFunction.parse(output: member.key, text) {
      case .success(let parsed): function = parsed
      case .failure(let problem): throw SQLExportError(node: id, "param 'columns': \(problem.reason)")
      }
      if keys.contains(member.key) {
        throw SQLExportError(
          node: id, "column '\(member.key)' replaces a partitionBy or orderBy column; this has no SQL form")
      }
      if let column = function.column, defined.contains(column) {
        current = flush(helperName(id))
        layer = Array(repeating: nil, count: columns.count)
        defined = []
      }
      var source: (sql: String, type: SQLType)?
      if let column = function.column {
        guard let position = layerIndex[column] else {
          throw missing(id, column, SQLRelation(name: current.name, columns: columns, types: types))
        }
        source = (q(column), types[position])
      }
      let frame = WindowFrame(partition: partition, rowsOrder: rowsOrder, peerOrder: peerOrder)
      let (sql, type) = try windowSQL(id, function, source, frame)
      if let position = layerIndex[member.key] {
        layer[position] = sql
        types[position] = type
      } else {
        layerIndex[member.key] = columns.count
        columns.append(member.key)
        types.append(type)
        layer.append(sql)
      }
      defined.insert(member.key)
    }
    return flush(id)
  }

  /// The `OVER` clauses of one `window` node.
  private struct WindowFrame {
    let partition: String
    let rowsOrder: String
    let peerOrder: String

    /// `OVER (PARTITION BY … ORDER BY … ROWS …)`; no order for a whole-partition aggregate.
    func over(_ frame: String?) -> String {
      guard let frame else { return "OVER (\(partition))" }
      let space = partition.isEmpty ? "" : " "
      return "OVER (\(partition)\(space)ORDER BY \(rowsOrder)\(frame.isEmpty ? "" : " " + frame))"
    }
  }

  /// The SQL of one window function and its type.
  private func windowSQL(
    _ id: String, _ function: WindowFunction, _ source: (sql: String, type: SQLType)?,
    _ frame: WindowFrame
  ) throws(SQLExportError) -> (String, SQLType) {
    let name = function.function.rawValue
    let c = source?.sql ?? "", type = source?.type ?? .null
    let running = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
    let rolling = "ROWS BETWEEN \(function.size - 1) PRECEDING AND CURRENT ROW"
    let whole = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
    func needsNumbers() -> SQLExportError {
      SQLExportError(
        node: id, "param 'columns': '\(function.output)': \(name) needs a numeric or bool column, got \(type)")
    }
    switch function.function {
    case .rowNumber, .cumcount: return ("row_number() \(frame.over(""))", .integer)
    case .rank, .denseRank:
      if frame.peerOrder.isEmpty { return (dialect.integerLiteral(1), .integer) }
      let space = frame.partition.isEmpty ? "" : " "
      return (
        "\(name == "rank" ? "rank" : "dense_rank")() OVER (\(frame.partition)\(space)ORDER BY \(frame.peerOrder))",
        .integer
      )
    case .count: return (source == nil ? "count(*) \(frame.over(nil))" : "count(\(c)) \(frame.over(nil))", .integer)
    case .lag, .lead:
      var result = type
      var value = c
      var fallback = ""
      switch (type, function.fallback) {
      case (_, .null): break
      case (.integer, .integer(let n)): fallback = ", " + dialect.integerLiteral(n)
      case (.number, .integer(let n)): fallback = ", " + dialect.numberLiteral(Double(n))
      case (.integer, .number(let x)), (.number, .number(let x)):
        fallback = ", " + dialect.numberLiteral(x)
        result = .number
        value = dialect.cast(c, to: .number)
      case (.string, .string(let text)), (.null, .string(let text)): fallback = ", " + dialect.literal(text)
      case (.bool, .bool(let flag)), (.null, .bool(let flag)): fallback = ", " + (flag ? "TRUE" : "FALSE")
      default:
        throw SQLExportError(
          node: id,
          "param 'columns': '\(function.output)': the default \(function.fallback) does not fit a \(type) column")
      }
      return ("\(name)(\(value), \(function.offset)\(fallback)) \(frame.over(""))", result)
    case .cumsum, .rollingSum, .sum:
      let over = frame.over(function.function == .sum ? nil : function.function == .cumsum ? running : rolling)
      switch type {
      case .integer, .null: return ("CAST(sum(\(c)) \(over) AS BIGINT)", .integer)
      case .bool: return ("CAST(sum(CAST(\(c) AS INTEGER)) \(over) AS BIGINT)", .integer)
      case .number: return (numberSum(c, over), .number)
      case .string: throw needsNumbers()
      }
    case .cummean, .rollingMean, .mean:
      let over = frame.over(function.function == .mean ? nil : function.function == .cummean ? running : rolling)
      guard type != .string else { throw needsNumbers() }
      let value = type == .bool ? dialect.cast("CAST(\(c) AS INTEGER)", to: .number) : dialect.cast(c, to: .number)
      switch dialect {
      case .postgres: return ("CAST(avg(CAST(\(value) AS NUMERIC)) \(over) AS DOUBLE PRECISION)", .number)
      case .duckdb: return ("(fsum(\(value)) \(over) / count(\(value)) \(over))", .number)
      case .spark, .trino: return ("avg(\(value)) \(over)", .number)
      }
    case .cummin, .cummax, .rollingMin, .rollingMax, .min, .max:
      let over = frame.over(
        [.min, .max].contains(function.function)
          ? nil : [.cummin, .cummax].contains(function.function) ? running : rolling)
      let pick = [.cummin, .rollingMin, .min].contains(function.function) ? "min" : "max"
      return ("\(pick)(\(type == .string ? dialect.collated(c) : c)) \(over)", type)
    case .std, .variance, .median, .quantile:
      guard type != .string else { throw needsNumbers() }
      let value = type == .bool ? dialect.cast("CAST(\(c) AS INTEGER)", to: .number) : dialect.cast(c, to: .number)
      switch function.function {
      case .std: return ("stddev_samp(\(value)) \(frame.over(nil))", .number)
      case .variance: return ("var_samp(\(value)) \(frame.over(nil))", .number)
      default:
        guard dialect == .duckdb else {
          throw SQLExportError(
            node: id,
            "param 'columns': '\(function.output)': \(name) over a window has no exact "
              + "\(dialect) translation (only DuckDB computes quantile_cont as a window function)")
        }
        return (
          "quantile_cont(\(value), \(function.function == .median ? 0.5 : function.q)) \(frame.over(nil))", .number
        )
      }
    case .first, .last:
      let over = frame.over(whole)
      let pick = function.function == .first ? "first_value" : "last_value"
      switch dialect {
      case .duckdb: return ("\(pick)(\(c) IGNORE NULLS) \(over)", type)
      case .spark: return ("\(pick)(\(c), true) \(over)", type)
      case .trino: return ("\(pick)(\(c)) IGNORE NULLS \(over)", type)
      case .postgres:
        throw SQLExportError(
          node: id,
          "param 'columns': '\(function.output)': \(name) skips nulls, which postgres window "
            + "functions cannot (IGNORE NULLS); no postgres translation")
      }
    }
  }

  /// A compensated sum of numbers where the engine has one.
  private func numberSum(_ c: String, _ over: String) -> String {
    switch dialect {
    case .duckdb: "fsum(\(c)) \(over)"
    case .postgres: "CAST(sum(CAST(\(c) AS NUMERIC)) \(over) AS DOUBLE PRECISION)"
    case .spark, .trino: "sum(CAST(\(c) AS DOUBLE)) \(over)"
    }
  }

  mutating func unpivot(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation
  {
    let keep = try strings(id, params, "keep")
    let index = input.index
    for key in keep where index[key] == nil { throw missing(id, key, input) }
    let listed =
      params["columns"] == nil ? input.columns.filter { !keep.contains($0) } : try strings(id, params, "columns")
    let names = params["names"]?.stringValue ?? "name", values = params["values"]?.stringValue ?? "value"
    var type = SQLType.null
    for name in listed {
      guard let position = index[name] else { throw missing(id, name, input) }
      guard let unified = SQLType.unify(type, input.types[position]) else {
        throw SQLExportError(
          node: id,
          "columns: '\(listed[0])' and '\(name)' have types that do not mix (\(type), \(input.types[position]))")
      }
      type = unified
    }
    let keepTypes = keep.map { input.types[index[$0]!] }
    let slot = q("__flow_slot"), keptList = keep.map { ", " + q($0) }.joined()
    guard !listed.isEmpty else {
      let select =
        "SELECT \(row)\(keptList), \(dialect.cast("NULL", to: .string)) AS \(q(names)), "
        + "\(dialect.cast("NULL", to: .integer)) AS \(q(values)) FROM \(q(input.name)) WHERE 1 = 0"
      return add(id, select, keep + [names, values], keepTypes + [.string, .integer])
    }
    var parts: [String] = []
    for (position, name) in listed.enumerated() {
      let value = input.types[index[name]!] == type ? q(name) : dialect.cast(q(name), to: type)
      parts.append(
        "SELECT \(row), \(position) AS \(slot)\(keptList), \(dialect.literal(name)) AS \(q(names)), \(value) AS \(q(values)) FROM \(q(input.name))"
      )
    }
    let select =
      "SELECT row_number() OVER (ORDER BY \(row), \(slot)) AS \(row)\(keptList), \(q(names)), \(q(values)) FROM ("
      + parts.joined(separator: " UNION ALL ") + ") AS \(q("u"))"
    return add(id, select, keep + [names, values], keepTypes + [.string, type])
  }
}
