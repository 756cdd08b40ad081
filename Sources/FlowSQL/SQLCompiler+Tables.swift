import FlowNodes
import FlowRuntime

/// `filter`, `derive`, `select`, `sort`, `distinct`, `limit`: one relation each (a `derive`
/// whose formula uses a column an earlier entry added gets one helper relation per such step).
extension SQLCompiler {
  /// Translates the formula `text` of param `param` against `relation`.
  func formula(
    _ id: String, _ param: String, _ text: String, _ relation: SQLRelation,
    index: [String: Int], translator: inout RowFormulaTranslator
  ) throws(SQLExportError) -> SQLExpression {
    let parsed: RowFormula
    do { parsed = try RowFormula(parsing: text) } catch {
      throw SQLExportError(node: id, "param '\(param)': \(error)")
    }
    do {
      return try translator.translate(parsed) { name in
        index[name].map { (q(name), relation.types[$0]) }
      }
    } catch {
      throw SQLExportError(node: id, "param '\(param)': \(error.message)")
    }
  }

  mutating func filter(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    guard let text = params["where"]?.stringValue else {
      throw SQLExportError(node: id, "param 'where' must be a formula")
    }
    var translator = RowFormulaTranslator(dialect: dialect)
    var condition = try formula(id, "where", text, input, index: input.index, translator: &translator)
    do { condition = try translator.boolean(condition) } catch {
      throw SQLExportError(node: id, "param 'where': \(error.message)")
    }
    guard condition.type == .bool || condition.type == .null else {
      throw SQLExportError(node: id, "param 'where': the formula gives \(condition.type), not a bool")
    }
    let select = "SELECT * FROM \(q(input.name)) WHERE " + translator.rope.string(condition.node)
    return add(id, select, input.columns, input.types)
  }

  mutating func derive(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    guard let entries = params["columns"]?.objectValue else {
      throw SQLExportError(node: id, "param 'columns' must be a record")
    }
    var current = input
    var index = input.index
    // The layer being built: each output column's SQL (nil: the column as it is).
    var layer: [String?] = Array(repeating: nil, count: current.columns.count)
    var layerTypes = current.types
    var layerColumns = current.columns
    var layerIndex = index
    var defined: Set<String> = []
    var translator = RowFormulaTranslator(dialect: dialect)
    func flush(_ name: String) -> SQLRelation {
      var select = "SELECT \(row)"
      for (position, column) in layerColumns.enumerated() {
        select += ", " + (layer[position].map { "\($0) AS \(q(column))" } ?? q(column))
      }
      select += " FROM \(q(current.name))"
      return add(name, select, layerColumns, layerTypes)
    }
    for member in entries.members {
      guard let text = member.value.stringValue else {
        throw SQLExportError(node: id, "param 'columns': '\(member.key)' must be a formula")
      }
      let parsed: RowFormula
      do { parsed = try RowFormula(parsing: text) } catch {
        throw SQLExportError(node: id, "param 'columns': '\(member.key)': \(error)")
      }
      if parsed.columns.contains(where: defined.contains) {
        // Uses a column this layer makes: the layer becomes a helper relation.
        current = flush(helperName(id))
        index = layerIndex
        layer = Array(repeating: nil, count: layerColumns.count)
        defined = []
      }
      let expression: SQLExpression
      do {
        expression = try translator.translate(parsed) { name in index[name].map { (q(name), current.types[$0]) } }
      } catch {
        throw SQLExportError(node: id, "param 'columns': '\(member.key)': \(error.message)")
      }
      let sql = translator.rope.string(expression.node)
      if let position = layerIndex[member.key] {
        layer[position] = sql
        layerTypes[position] = expression.type
      } else {
        layerIndex[member.key] = layerColumns.count
        layerColumns.append(member.key)
        layerTypes.append(expression.type)
        layer.append(sql)
      }
      defined.insert(member.key)
    }
    return flush(id)
  }

  mutating func select(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    let index = input.index
    var select = "SELECT \(row)"
    var columns: [String] = [], types: [SQLType] = []
    for entry in try strings(id, params, "columns") {
      var old = entry, new = entry
      if let range = entry.range(of: " as ") {
        old = String(entry[..<range.lowerBound])
        new = String(entry[range.upperBound...])
      }
      guard let position = index[old] else { throw missing(id, old, input) }
      select += old == new ? ", \(q(old))" : ", \(q(old)) AS \(q(new))"
      columns.append(new)
      types.append(input.types[position])
    }
    return add(id, select + " FROM \(q(input.name))", columns, types)
  }

  /// `k1 ASC NULLS LAST, …` for sort keys (`-name` descending).
  func orderKeys(_ id: String, _ keys: [String], _ input: SQLRelation) throws(SQLExportError) -> String {
    let index = input.index
    var text = ""
    for key in keys {
      let descending = key.hasPrefix("-") && index[key] == nil
      let name = descending ? String(key.dropFirst()) : key
      guard let position = index[name] else {
        // Not a column: a row formula (`-abs(delay)`), unless it is a bare name or no formula.
        guard let parsed = try? RowFormula(parsing: name), parsed.columns != [name] else {
          throw missing(id, name, input)
        }
        var translator = RowFormulaTranslator(dialect: dialect)
        let expression: SQLExpression
        do {
          expression = try translator.translate(parsed) { column in index[column].map { (q(column), input.types[$0]) } }
        } catch {
          throw SQLExportError(node: id, "param 'by': '\(name)': \(error.message)")
        }
        let sql = translator.rope.string(expression.node)
        text +=
          "\(expression.type == .string ? dialect.collated("(\(sql))") : sql) \(descending ? "DESC" : "ASC") NULLS LAST, "
        continue
      }
      let column = input.types[position] == .string ? dialect.collated(q(name)) : q(name)
      text += "\(column) \(descending ? "DESC" : "ASC") NULLS LAST, "
    }
    return text + row
  }

  mutating func sort(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    let order = try orderKeys(id, try strings(id, params, "by"), input)
    let select = "SELECT row_number() OVER (ORDER BY \(order)) AS \(row), \(columnList(input)) FROM \(q(input.name))"
    return add(id, select, input.columns, input.types)
  }

  mutating func distinct(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation
  {
    var keys = try strings(id, params, "columns")
    if keys.isEmpty { keys = input.columns }
    let index = input.index
    var partition = ""
    for key in keys {
      guard index[key] != nil else { throw missing(id, key, input) }
      partition += (partition.isEmpty ? "" : ", ") + q(key)
    }
    let counter = q("__flow_n")
    let select =
      "SELECT \(row), \(columnList(input)) FROM (SELECT *, row_number() OVER (PARTITION BY \(partition) ORDER BY \(row)) AS \(counter) FROM \(q(input.name))) AS \(q("t")) WHERE \(counter) = 1"
    return add(id, select, input.columns, input.types)
  }

  mutating func limit(_ id: String, _ input: SQLRelation, _ params: JSONObject) throws(SQLExportError) -> SQLRelation {
    guard let count = params["count"]?.integerValue, count >= 0 else {
      throw SQLExportError(node: id, "param 'count' must be an integer ≥ 0")
    }
    let offset = params["offset"]?.integerValue ?? 0
    let (end, overflow) = max(offset, 0).addingReportingOverflow(count)
    let counter = q("__flow_n")
    var select =
      "SELECT \(row), \(columnList(input)) FROM (SELECT *, row_number() OVER (ORDER BY \(row)) AS \(counter) FROM \(q(input.name))) AS \(q("t")) WHERE \(counter) > \(max(offset, 0))"
    if !overflow { select += " AND \(counter) <= \(end)" }
    return add(id, select, input.columns, input.types)
  }
}
