import FlowNodes
import FlowRuntime

/// A standard kind's node compiled by its declared ``SQLForm``: one operator each, with the
/// input ports that operator reads.
extension SQLCompiler {
  /// The relation node `index` (`node`, its params bound) compiles to as `form`; nil for a
  /// writer, which adds an output instead.
  mutating func compile(_ form: SQLForm, _ index: Int, _ node: FlowNode) throws(SQLExportError) -> SQLRelation? {
    let id = node.id
    let params = node.data.params
    switch form {
    case .read(.parquet): return try parquetSource(node)
    case .read(let format): return try source(node, format)
    case .filter: return try filter(id, try input(index, "table"), params)
    case .derive: return try derive(id, try input(index, "table"), params)
    case .select: return try select(id, try input(index, "table"), params)
    case .sort: return try sort(id, try input(index, "table"), params)
    case .groupBy: return try groupBy(id, try input(index, "table"), params)
    case .join: return try join(id, try input(index, "left"), try input(index, "right"), params)
    case .union: return try union(id, try input(index, "a"), try input(index, "b"))
    case .distinct: return try distinct(id, try input(index, "table"), params)
    case .limit: return try limit(id, try input(index, "table"), params)
    case .window: return try window(id, try input(index, "table"), params)
    case .unpivot: return try unpivot(id, try input(index, "table"), params)
    case .write(let format): return try writer(node, format, try input(index, format == .json ? "value" : "table"))
    case .none(let refusal): throw SQLExportError(node: id, refusal.reason(node.data.kind))
    }
  }
}
