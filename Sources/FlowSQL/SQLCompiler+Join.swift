import FlowRuntime

/// `groupBy`, `join` and `union`: the row order made explicit (groups by their first row,
/// join rows by the left then right row numbers, union rows by side then row).
extension SQLCompiler {
  mutating func groupBy(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation
  {
    let keys = try strings(id, params, "by")
    let index = input.index
    var columns: [String] = [], types: [SQLType] = []
    var keyList = ""
    for key in keys {
      guard let position = index[key] else { throw missing(id, key, input) }
      keyList += (keyList.isEmpty ? "" : ", ") + q(key)
      columns.append(key)
      types.append(input.types[position])
    }
    var select = keys.isEmpty ? "SELECT coalesce(min(\(row)), 0) AS \(row)" : "SELECT min(\(row)) AS \(row), \(keyList)"
    for member in params["aggregate"]?.objectValue?.members ?? [] {
      guard let text = member.value.stringValue else {
        throw SQLExportError(node: id, "param 'aggregate': '\(member.key)' must be a string")
      }
      let (function, column) = try aggregate(id, member.key, text)
      var sql: String, type: SQLType
      if function == "count" && column.isEmpty {
        (sql, type) = ("count(*)", .integer)
      } else {
        var column = column, fraction: Double?
        if function == "quantile" {
          // `quantile(c, q)`: the last comma parts the column from `q`.
          guard let comma = column.lastIndex(of: ","),
            let value = Double(String(column[column.index(after: comma)...]).trimming(" ")),
            value >= 0, value <= 1
          else {
            throw SQLExportError(
              node: id, "param 'aggregate': '\(member.key)': quantile needs a number from 0 to 1 after the column")
          }
          fraction = value
          column = String(column[..<comma]).trimming(" ")
          if column.count >= 2 && column.hasPrefix("`") && column.hasSuffix("`") {
            column = String(column.dropFirst().dropLast())
          }
        }
        guard let position = index[column] else { throw missing(id, column, input) }
        (sql, type) = try aggregateSQL(id, member.key, function, q(column), input.types[position], q: fraction)
      }
      select += ", \(sql) AS \(q(member.key))"
      columns.append(member.key)
      types.append(type)
    }
    select += " FROM \(q(input.name))"
    if !keys.isEmpty { select += " GROUP BY \(keyList)" }
    return add(id, select, columns, types)
  }

  /// `sum(c)` → ("sum", "c"); a column may be backticked.
  private func aggregate(_ id: String, _ output: String, _ text: String) throws(SQLExportError) -> (String, String) {
    let trimmed = text.trimming(" ")
    guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
      throw SQLExportError(node: id, "param 'aggregate': '\(output)': \"\(text)\" is not an aggregate")
    }
    let function = String(trimmed[..<open]).trimming(" ")
    var argument = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]).trimming(" ")
    if argument.count >= 2 && argument.hasPrefix("`") && argument.hasSuffix("`") {
      argument = String(argument.dropFirst().dropLast())
    }
    return (function, argument)
  }

  /// The SQL of an aggregate over column `c` of type `type`, and its type.
  private func aggregateSQL(
    _ id: String, _ output: String, _ function: String, _ c: String, _ type: SQLType, q fraction: Double? = nil
  ) throws(SQLExportError) -> (String, SQLType) {
    // A bool counts `true` as 1 where numbers are summed or measured.
    if type == .bool, ["sum", "mean", "median", "std", "var", "quantile"].contains(function) {
      return try aggregateSQL(id, output, function, "CAST(\(c) AS INTEGER)", .integer, q: fraction)
    }
    let numeric = type.isNumeric || type == .null
    func needsNumbers() -> SQLExportError {
      SQLExportError(node: id, "param 'aggregate': '\(output)': \(function) needs a numeric column, got \(type)")
    }
    let double = dialect.typeName(.number)
    switch function {
    case "sum":
      guard numeric else { throw needsNumbers() }
      if type == .integer { return ("CAST(sum(\(c)) AS BIGINT)", .integer) }
      switch dialect {
      case .duckdb: return ("fsum(\(c))", .number)
      case .postgres: return ("CAST(sum(CAST(\(c) AS NUMERIC)) AS DOUBLE PRECISION)", .number)
      case .spark, .trino: return ("sum(CAST(\(c) AS DOUBLE))", .number)
      }
    case "mean":
      guard numeric else { throw needsNumbers() }
      switch dialect {
      case .duckdb: return ("favg(CAST(\(c) AS DOUBLE))", .number)
      case .postgres: return ("CAST(avg(CAST(\(c) AS NUMERIC)) AS DOUBLE PRECISION)", .number)
      case .spark, .trino: return ("avg(CAST(\(c) AS \(double)))", .number)
      }
    case "min", "max":
      return ("\(function)(\(type == .string ? dialect.collated(c) : c))", type)
    case "first", "last":
      let pick = function == "first" ? "min" : "max"
      switch dialect {
      case .duckdb: return ("arg_\(pick)(\(c), \(row)) FILTER (WHERE \(c) IS NOT NULL)", type)
      case .spark, .trino: return ("\(pick)_by(\(c), \(row)) FILTER (WHERE \(c) IS NOT NULL)", type)
      case .postgres:
        return (
          "(array_agg(\(c) ORDER BY \(row)\(function == "first" ? "" : " DESC")) FILTER (WHERE \(c) IS NOT NULL))[1]",
          type
        )
      }
    case "countDistinct": return ("NULLIF(count(DISTINCT \(c)), 0)", .integer)  // no non-null value: null
    case "count": return ("count(\(c))", .integer)
    case "std", "var":
      guard numeric else { throw needsNumbers() }
      let name = function == "std" ? "stddev_samp" : "var_samp"
      return ("\(name)(CAST(\(c) AS \(double)))", .number)
    case "median", "quantile":
      guard numeric else { throw needsNumbers() }
      let p = dialect.numberLiteral(fraction ?? 0.5)
      switch dialect {
      case .duckdb: return ("quantile_cont(CAST(\(c) AS DOUBLE), \(p))", .number)
      case .postgres: return ("percentile_cont(\(p)) WITHIN GROUP (ORDER BY \(c))", .number)
      case .spark: return ("percentile(\(c), \(p))", .number)
      case .trino:
        // Trino has only approximate percentiles.
        throw SQLExportError(node: id, "param 'aggregate': '\(output)': \(function) has no exact translation for trino")
      }
    default:
      throw SQLExportError(node: id, "param 'aggregate': '\(output)': unknown aggregate '\(function)'")
    }
  }

  mutating func join(_ id: String, _ left: SQLRelation, _ right: SQLRelation, _ params: JSONObject)
    throws(SQLExportError) -> SQLRelation
  {
    let keys = try strings(id, params, "on")
    let how = params["how"]?.stringValue ?? "inner"
    guard !keys.isEmpty || how == "inner" else {
      throw SQLExportError(node: id, "param 'on' is empty (a cross join), which needs how \"inner\", not \"\(how)\"")
    }
    let leftIndex = left.index, rightIndex = right.index
    let l = q("l"), r = q("r")
    var condition = ""
    // Key columns named alike on both sides: each is one output column (merged for right and full).
    var keySet = Set<String>()
    for key in keys {
      let pair = Self.joinKeyPair(key, leftIndex, rightIndex)
      guard leftIndex[pair.left] != nil else { throw missing(id, pair.left, left) }
      guard rightIndex[pair.right] != nil else { throw missing(id, pair.right, right) }
      condition += (condition.isEmpty ? "" : " AND ") + "\(l).\(q(pair.left)) = \(r).\(q(pair.right))"
      if pair.left == pair.right { keySet.insert(pair.left) }
    }
    switch how {
    case "semi", "anti":
      let select =
        "SELECT \(l).* FROM \(q(left.name)) AS \(l) WHERE \(how == "anti" ? "NOT " : "")EXISTS (SELECT 1 FROM \(q(right.name)) AS \(r) WHERE \(condition))"
      return add(id, select, left.columns, left.types)
    case "inner", "left", "right", "full": break
    default:
      throw SQLExportError(node: id, "param 'how' must be inner, left, right, full, semi or anti, found \"\(how)\"")
    }
    let ownKeys = how == "right" || how == "full"
    var columns = left.columns, types = left.types
    var list = ""
    for (position, name) in left.columns.enumerated() {
      list += ", "
      if ownKeys && keySet.contains(name), let other = rightIndex[name] {
        let type = SQLType.unify(left.types[position], right.types[other]) ?? left.types[position]
        types[position] = type
        list += "coalesce(\(l).\(q(name)), \(r).\(q(name))) AS \(q(name))"
      } else {
        list += "\(l).\(q(name))"
      }
    }
    for (position, name) in right.columns.enumerated() where !keySet.contains(name) {
      let output = leftIndex[name] == nil ? name : name + "_right"
      list += ", \(r).\(q(name))" + (output == name ? "" : " AS \(q(output))")
      columns.append(output)
      types.append(right.types[position])
    }
    let order: String
    switch how {
    case "right": order = "\(r).\(row), \(l).\(row)"
    case "full": order = "CASE WHEN \(l).\(row) IS NULL THEN 1 ELSE 0 END, \(l).\(row), \(r).\(row)"
    default: order = "\(l).\(row), \(r).\(row)"
    }
    let kind = ["inner": "INNER", "left": "LEFT", "right": "RIGHT", "full": "FULL"][how] ?? "INNER"
    // `on: []`: a cross join, left order then right order.
    let joined =
      keys.isEmpty ? "CROSS JOIN \(q(right.name)) AS \(r)" : "\(kind) JOIN \(q(right.name)) AS \(r) ON \(condition)"
    let select = "SELECT row_number() OVER (ORDER BY \(order)) AS \(row)\(list) FROM \(q(left.name)) AS \(l) \(joined)"
    return add(id, select, columns, types)
  }

  /// The left and right columns of a `join` `on` entry: a name of both sides is that column;
  /// otherwise `"left = right"` names the left column, then the right one (spaces around
  /// them dropped); anything else is a name (missing from a side).
  static func joinKeyPair(_ entry: String, _ leftIndex: [String: Int], _ rightIndex: [String: Int]) -> (
    left: String, right: String
  ) {
    if leftIndex[entry] != nil && rightIndex[entry] != nil { return (entry, entry) }
    if let equals = entry.firstIndex(of: "=") {
      let left = String(entry[..<equals]).trimming(" "),
        right = String(entry[entry.index(after: equals)...]).trimming(" ")
      if !left.isEmpty && !right.isEmpty { return (left, right) }
    }
    return (entry, entry)
  }

  mutating func union(_ id: String, _ a: SQLRelation, _ b: SQLRelation) throws(SQLExportError) -> SQLRelation {
    let aIndex = a.index, bIndex = b.index
    var columns = a.columns
    var types: [SQLType] = []
    for name in b.columns where aIndex[name] == nil { columns.append(name) }
    for name in columns {
      let x = aIndex[name].map { a.types[$0] }, y = bIndex[name].map { b.types[$0] }
      guard let type = SQLType.unify(x ?? .null, y ?? .null) else {
        throw SQLExportError(
          node: id,
          "column '\(name)' is \(x.map { "\($0)" } ?? "missing") in a but \(y.map { "\($0)" } ?? "missing") in b")
      }
      types.append(type)
    }
    func side(_ relation: SQLRelation, _ index: [String: Int], _ tag: Int) -> String {
      var text = "SELECT \(tag) AS \(q("__flow_side")), \(row)"
      for (name, type) in zip(columns, types) {
        if let position = index[name] {
          text +=
            relation.types[position] == type || type == .null
            ? ", \(q(name))" : ", \(dialect.cast(q(name), to: type)) AS \(q(name))"
        } else {
          text += ", \(dialect.cast("NULL", to: type)) AS \(q(name))"
        }
      }
      return text + " FROM \(q(relation.name))"
    }
    var list = ""
    for name in columns { list += ", " + q(name) }
    let select =
      "SELECT row_number() OVER (ORDER BY \(q("__flow_side")), \(row)) AS \(row)\(list) FROM (\(side(a, aIndex, 0)) UNION ALL \(side(b, bIndex, 1))) AS \(q("u"))"
    return add(id, select, columns, types)
  }
}

extension String {
  /// Without leading and trailing `character`s.
  func trimming(_ character: Character) -> String {
    var slice = Substring(self)
    while slice.first == character { slice = slice.dropFirst() }
    while slice.last == character { slice = slice.dropLast() }
    return String(slice)
  }
}
