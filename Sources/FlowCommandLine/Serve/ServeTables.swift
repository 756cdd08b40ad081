import FlowGraph
import FlowRuntime
import Foundation

/// What `/state.json` says about tables: a summary in place of every table value (rows, columns
/// with their types, the first `headRows` rows), and one page of one table on request
/// (`?node=ID&port=P&offset=K&rows=N`, at most `maxPageRows` rows).
///
/// Invariant: no response grows with a table's row count: a summary holds `headRows` rows, a
/// page at most `maxPageRows`.
enum ServeTables {
  /// The rows a table's summary carries.
  static let headRows = 10
  /// The most rows one page request may ask for.
  static let maxPageRows = 10_000
  /// The rows a page request gets without `rows=`.
  static let defaultPageRows = 100

  /// `value` as `/state.json` shows it: a table as its summary, anything else as `run` prints it
  /// within `ServeValueBounds`.
  static func json(_ value: Value) -> JSONValue {
    guard case .table(let table) = value else { return ServeValueBounds.json(value) }
    return .object(["table": summary(table)])
  }

  /// `{"rows": R, "columns": [{"name", "type"}], "head": [first rows as objects]}`.
  static func summary(_ table: Table) -> JSONValue {
    .object([
      "rows": .integer(Int64(table.rowCount)),
      "columns": columns(table),
      "head": boundedCells(table.slice(0..<min(headRows, table.rowCount)).jsonRows)
    ])
  }

  /// Row objects whose long text cells are summarized (`ServeValueBounds.cell`).
  static func boundedCells(_ rows: JSONValue) -> JSONValue {
    guard case .array(let objects) = rows else { return rows }
    return .array(
      objects.map { row in
        guard case .object(let members) = row else { return row }
        return .object(
          JSONObject(members.members.map { JSONMember(key: $0.key, value: ServeValueBounds.cell($0.value)) }))
      })
  }

  static func columns(_ table: Table) -> JSONValue {
    .array(
      zip(table.columnNames, table.columns).map { name, column in
        .object(["name": .string(name), "type": .string(column.type.rawValue)])
      })
  }

  /// A failed page request: the HTTP status and the message (naming the parameter).
  struct Refusal: Error {
    var status: Int
    var message: String
  }

  /// One page of the table at `node`.`port` (the port may be left out when the node has one
  /// table output): `{"node", "port", "rows", "offset", "columns", "data": [row objects]}`.
  ///
  /// - Throws: `Refusal` (400) naming the parameter that is missing, unknown or out of range.
  static func page(_ query: [(name: String, value: String)], snapshot: GraphEvaluator?) throws(Refusal) -> JSONValue {
    var values: [String: String] = [:]
    for (name, value) in query {
      guard ["node", "port", "offset", "rows"].contains(name) else {
        throw Refusal(
          status: 400, message: "unknown parameter '\(String(name.prefix(100)))' (node, port, offset, rows)")
      }
      guard values.updateValue(value, forKey: name) == nil else {
        throw Refusal(status: 400, message: "parameter '\(name)' given twice")
      }
    }
    guard let node = values["node"], !node.isEmpty else {
      throw Refusal(status: 400, message: "parameter 'node' is missing")
    }
    func number(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws(Refusal) -> Int {
      guard let text = values[name] else { return fallback }
      guard let number = Int(text), range.contains(number) else {
        throw Refusal(
          status: 400,
          message:
            "parameter '\(name)' expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(String(text.prefix(100)))'"
        )
      }
      return number
    }
    let offset = try number("offset", default: 0, range: 0...Int(Int32.max))
    let rows = try number("rows", default: defaultPageRows, range: 0...maxPageRows)
    guard let snapshot, let ports = snapshot.portValues(of: node) else {
      throw Refusal(
        status: 400, message: "parameter 'node': there is no node '\(String(node.prefix(100)))' with values")
    }
    let tables = ports.compactMap { port, value -> (String, Table)? in
      if case .table(let table) = value { return (port, table) }
      return nil
    }
    let chosen: (String, Table)
    if let port = values["port"] {
      guard let found = tables.first(where: { $0.0 == port }) else {
        throw Refusal(
          status: 400, message: "parameter 'port': node '\(node)' has no table output '\(String(port.prefix(100)))'")
      }
      chosen = found
    } else {
      guard tables.count == 1 else {
        throw Refusal(
          status: 400, message: "parameter 'port' is missing: node '\(node)' has \(tables.count) table outputs")
      }
      chosen = tables[0]
    }
    let table = chosen.1
    let start = min(offset, table.rowCount)
    let end = min(table.rowCount, start + rows)
    return .object([
      "node": .string(node),
      "port": .string(chosen.0),
      "rows": .integer(Int64(table.rowCount)),
      "offset": .integer(Int64(start)),
      "columns": columns(table),
      "data": table.slice(start..<end).jsonRows
    ])
  }

  /// The `name=value` pairs of a request target's query, percent-decoded (`+` is a space).
  ///
  /// - Throws: `Refusal` (400) for a malformed percent escape.
  static func query(of target: String) throws(Refusal) -> [(name: String, value: String)] {
    guard let mark = target.firstIndex(of: "?") else { return [] }
    var query = target[target.index(after: mark)...]
    if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
    var pairs: [(name: String, value: String)] = []
    for part in query.split(separator: "&", omittingEmptySubsequences: true) {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ text: Substring) throws(Refusal) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let result = spaced.removingPercentEncoding else {
          throw Refusal(status: 400, message: "malformed percent escape in the query")
        }
        return result
      }
      pairs.append((try decoded(pieces[0]), pieces.count > 1 ? try decoded(pieces[1]) : ""))
    }
    return pairs
  }
}
