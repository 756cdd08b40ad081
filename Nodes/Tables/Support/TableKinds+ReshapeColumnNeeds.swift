import FlowGraph
import FlowRuntime

// What `window`, `pivot` and `unpivot` read of their input (`ColumnDemand`), as
// `TableKinds+ColumnNeeds.swift` says for the other table kinds. Params that do not parse
// need everything (the node then fails configuration as it would anyway).

extension WindowNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard case .only(var needed) = outputNeeds, let members = params["columns"]?.objectValue?.members else {
      return .all
    }
    var keys: [String] = []
    for name in ["partitionBy", "orderBy"] {
      guard let list = params[name].map({ $0.arrayValue?.compactMap(\.stringValue) }) ?? [] else { return .all }
      keys += list.map { name == "orderBy" && $0.hasPrefix("-") ? String($0.dropFirst()) : $0 }
    }
    // An entry reads the input's column unless an earlier entry made one of that name.
    var made = Set<String>(), read = Set(keys)
    for member in members {
      guard let text = member.value.stringValue,
        case .success(let function) = WindowFunction.parse(output: member.key, text)
      else {
        return .all
      }
      if let column = function.column, !made.contains(column) { read.insert(column) }
      made.insert(member.key)
    }
    needed.subtract(made)
    return .only(needed.union(read))
  }
}

extension PivotNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    guard let columns = params["columns"]?.stringValue, let values = params["values"]?.stringValue,
      let index = params["index"].map({ $0.arrayValue?.compactMap(\.stringValue) }) ?? []
    else { return .all }
    return .only(Set(index + [columns, values]))
  }
}

extension UnpivotNode: ColumnDemandingKind {
  func columnNeeds(of input: String, params: JSONObject, outputNeeds: ColumnNeeds) -> ColumnNeeds {
    // Without `columns`, every column not kept becomes rows: all are read.
    guard let listed = params["columns"]?.arrayValue?.compactMap(\.stringValue),
      let keep = params["keep"].map({ $0.arrayValue?.compactMap(\.stringValue) }) ?? []
    else { return .all }
    return .only(Set(keep + listed))
  }
}
