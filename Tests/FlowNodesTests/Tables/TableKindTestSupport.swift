import FlowGraph
import FlowRuntime
@testable import FlowNodes

/// `tableInput`: passes on the table set on its unconnected input `table` (a test stand-in for
/// `readCSV`).
struct TableInputKind: StaticNodeKind {
  var name: String { "tableInput" }
  var summary: String { "table = input table" }
  var inputs: [InputPort] { [InputPort("table", .table, default: .null)] }
  var outputs: [PortDeclaration] { [PortDeclaration("table", .table)] }
  func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws { outputs[0] = inputs[0] }
}

/// A graph `source (tableInput) → node (kind with params)`, evaluated with tables set on the
/// source.
struct TablePipeline {
  var evaluator: GraphEvaluator
  let source: InputReference

  init(_ kind: String, _ params: JSONObject) throws {
    var registry = NodeKindRegistry.standard
    registry.register(TableInputKind())
    let document = FlowDocument(
      nodes: [.node("source", "tableInput"), .node("node", kind, params: params)],
      edges: [.edge("e", "source.table", "node.table")])
    evaluator = try GraphEvaluator(validating: document, registry: registry)
    guard let source = evaluator.input("source", "table") else { throw NodeError("no source input") }
    self.source = source
  }

  /// Runs a pass with `table` as the source's table; the node's output table or its failure.
  mutating func run(_ table: Table) throws -> (table: Table?, failure: String?, ran: [String]) {
    try evaluator.setUnconnectedInput(source, to: .table(table))
    let report = evaluator.evaluate()
    let ran = report.ran.sorted()
    return (evaluator.value(of: "node", port: "table")?.tableValue, evaluator.failure(of: "node"), ran)
  }
}

extension Table {
  /// A table of test columns.
  init(_ columns: [CellColumn]) throws {
    try self.init(columns.map { (name: $0.name, column: $0.tableColumn) })
  }

  /// Column `name`'s cells.
  func cells(_ name: String) -> [Cell] {
    guard let column = column(named: name) else { return [] }
    return (0..<rowCount).map { Cell(column[$0]) }
  }
}

extension CellColumn {
  var tableColumn: Column {
    switch type {
    case .integer: .integers(cells.map { if case .integer(let n) = $0 { n } else { nil } })
    case .number: .numbers(cells.map { if case .number(let x) = $0 { x } else { nil } })
    case .bool: .bools(cells.map { if case .bool(let b) = $0 { b } else { nil } })
    default: .strings(cells.map { if case .string(let s) = $0 { s } else { nil } })
    }
  }
}

extension Cell {
  init(_ value: Value) {
    switch value {
    case .integer(let n): self = .integer(n)
    case .number(let x): self = .number(x)
    case .bool(let b): self = .bool(b)
    case .string(let s): self = .string(s)
    default: self = .null
    }
  }
}
