import FlowGraph
import FlowRuntime

// What each table kind reads of its inputs, from its params (`ColumnDemand`): a kind that
// passes its input's other columns through needs what its consumers need plus what it reads;
// one that makes new columns from some (groupBy, select, rowCount) needs only those. Params
// that do not parse need everything (the node then fails configuration as it would anyway).

extension JSONObject {
  /// The strings of list param `name`, or `nil` if it is not a list of strings.
  fileprivate func strings(_ name: String) -> [String]? {
    guard let list = self[name]?.arrayValue else { return nil }
    let strings = list.compactMap(\.stringValue)
    return strings.count == list.count ? strings : nil
  }
}

/// The columns a row formula names, or `nil` if it does not parse.
private func formulaColumns(_ source: String?) -> [String]? {
  guard let source, let formula = try? RowFormula(parsing: source) else { return nil }
  return formula.columns
}

extension FilterNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let read = formulaColumns(params["where"]?.stringValue) else { return .all }
    return outputNeeds.adding(read)
  }
}

extension DeriveNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard case .only(var needed) = outputNeeds, let members = params["columns"]?.objectValue?.members else {
      return .all
    }
    // A formula reads the input's column unless an earlier entry made one of that name; the
    // columns the entries make are not read from the input (unless a formula reads them first).
    var made = Set<String>()
    var read = Set<String>()
    for member in members {
      guard let columns = formulaColumns(member.value.stringValue) else { return .all }
      for column in columns where !made.contains(column) { read.insert(column) }
      made.insert(member.key)
    }
    needed.subtract(made)
    return .only(needed.union(read))
  }
}

extension SelectNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let entries = params.strings("columns") else { return .all }
    return .only(
      Set(
        entries.map { entry in
          guard let range = entry.range(of: " as ") else { return entry }
          return String(entry[..<range.lowerBound]).trimmingSpaces
        }))
  }
}

extension GroupByNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let keys = params["by"] == nil ? [] : params.strings("by") else { return .all }
    var needed = Set(keys)
    for member in params["aggregate"]?.objectValue?.members ?? [] {
      guard let text = member.value.stringValue,
        case .success(let aggregate) = Aggregate.parse(output: member.key, text)
      else {
        return .all
      }
      if let column = aggregate.column { needed.insert(column) }
    }
    return .only(needed)
  }
}

extension SortNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let keys = params.strings("by") else { return .all }
    // A formula entry needs the columns it reads (and its text, in case a column is so named).
    return outputNeeds.adding(keys.map(SortKey.init).flatMap { [$0.name] + ($0.formula?.columns ?? []) })
  }
}

extension LimitNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds { outputNeeds }
}

extension DistinctNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    // Without key columns every column is the key: dropping one would merge rows.
    guard params["columns"] != nil, let keys = params.strings("columns") else { return .all }
    return outputNeeds.adding(keys)
  }
}

extension JoinNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let keys = params.strings("on"), case .only(let needed) = outputNeeds else { return .all }
    // Each side is asked for every needed name (a side that lacks one ignores it), and for
    // `x` when `x_right` is needed, so a clash (and its suffix) stays as it was.
    let suffix = "_right"
    let unsuffixed = needed.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }
    // An entry `left = right` asks for both names (and for itself, in case it names a column).
    let pairs = keys.map(JoinKeyPair.init(parsing:)).flatMap { [$0.left, $0.right] }
    return .only(needed.union(keys).union(pairs).union(unsuffixed))
  }
}

extension RowCountNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds { .only([]) }
}

extension ColumnNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let name = params["name"]?.stringValue else { return .all }
    return .only([name])
  }
}

extension ReadCSVNode: ColumnProjectingKind {
  func projecting(_ params: JSONObject, to columns: Set<String>) -> JSONObject? {
    guard params["columns"] == nil else { return nil }
    var projected = params
    projected["columns"] = .array(columns.sorted().map { .string($0) })
    return projected
  }
}
