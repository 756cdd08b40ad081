/// One node of a parsed row formula's syntax tree, in postfix order, as code outside
/// `FlowNodes` reads it (the SQL compiler, `FlowSQL`): the one front end's ``FormulaSyntax``
/// without its internal types. Operands come before their operator; a call takes its argument
/// count of operands.
package enum RowFormulaTerm: Sendable, Hashable {
  case integer(Int64)
  case number(Double)
  case string(String)
  case bool(Bool)
  case null
  /// A column, bare or backticked.
  case column(String)
  case negate
  case not
  /// `+ - * / % ^`, as written.
  case arithmetic(String)
  /// `< <= == != >= >`, as written.
  case comparison(String)
  case and
  case or
  /// A function of `flow help formulas` (for `x in (a, b)`: `in` with the value first).
  case call(String, arguments: Int)
}

extension RowFormula {
  /// The syntax tree in postfix order.
  package var terms: [RowFormulaTerm] {
    syntax.nodes.map { node in
      switch node {
      case .number(let value, let integer): integer.map(RowFormulaTerm.integer) ?? .number(value)
      case .string(let text): .string(text)
      case .bool(let value): .bool(value)
      case .null: .null
      case .name(let name): .column(name)
      case .prefix(.negate): .negate
      case .prefix(.not): .not
      case .binary(.and): .and
      case .binary(.or): .or
      case .binary(.comparison(let op)): .comparison(op.symbol)
      case .binary(.arithmetic(let op)): .arithmetic(op.symbol)
      case .call(let id, let arguments): .call(FormulaBuiltin[id].name, arguments: arguments)
      }
    }
  }

  /// The names of every function of row formulas (what a translation must cover).
  package static var functionNames: [String] {
    FormulaBuiltin.table.filter { $0.contexts.contains(.row) }.map(\.name)
  }
}
