import FlowRuntime

/// `union`: the rows of `a`, then those of `b`. Columns are matched by name: `a`'s in its
/// order, then `b`'s new ones; a column one table lacks is null in its rows. An `integer`
/// column meeting a `number` column gives `number`; any other type clash fails the node naming
/// the column. The output's row count is checked against the row limit before it is built.
struct UnionNode: NodeKind {
  var name: String { "union" }
  var summary: String { "table = the rows of a, then those of b (columns matched by name)" }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    NodeInstance(
      inputs: [InputPort("a", .table, default: .null), InputPort("b", .table, default: .null)],
      outputs: [PortDeclaration("table", .table)],
      evaluator: Evaluator(limits: parameters.environment.limits), cost: .expensive)
  }

  struct Evaluator: NodeEvaluator {
    let limits: RunLimits

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let a = try inputs.table(0), b = try inputs.table(1)
      let rows = a.rowCount + b.rowCount
      var names = a.columnNames
      for name in b.columnNames where a.columnIndex(named: name) == nil { names.append(name) }
      // Types first, so a clash fails the node before anything is built.
      var types: [ColumnType] = []
      types.reserveCapacity(names.count)
      for name in names {
        types.append(try Self.type(of: name, a.column(named: name), b.column(named: name)))
      }
      try limits.checkRows(rows, of: "union output")
      var columns: [Column] = []
      columns.reserveCapacity(names.count)
      for (name, type) in zip(names, types) {
        let parts = [
          a.column(named: name) ?? .nulls(type, count: a.rowCount),
          b.column(named: name) ?? .nulls(type, count: b.rowCount)
        ]
        do { columns.append(try Column.concatenating(parts)) } catch { throw TableParameters.failure(error) }
        if Task.isCancelled { throw CancellationError() }
      }
      do { outputs[0] = .table(try Table(names: names, columns: columns, rowCount: rows)) } catch {
        throw TableParameters.failure(error)
      }
    }

    /// The output type of column `name`, given its column in `a` and in `b` (at least one).
    ///
    /// - Throws: `NodeError` naming the column if the two types do not mix.
    static func type(of name: String, _ a: Column?, _ b: Column?) throws -> ColumnType {
      guard let a else { return b?.type ?? .integer }
      guard let b, b.type != a.type else { return a.type }
      if a.isNumeric && b.isNumeric { return .number }
      throw NodeError("column '\(name)' is \(a.type) in a but \(b.type) in b")
    }
  }
}

extension UnionNode: SQLRelationalKind {
  var sqlForm: SQLForm { .union }
}
