/// A checked row formula: its syntax tree with every node's type resolved and every column
/// resolved to its position in the schema it was checked against. What ``RowFormulaChecker``
/// gives, and what both back ends consume: the row program (`RowProgram(compiling:)`) and the
/// SQL translator (`FlowSQL`), which match on the operator and function enums and read the
/// types from here instead of re-deriving them.
///
/// ```
/// i + 1.5 > n   →   column(i, 0): integer  number(1.5): number  arithmetic(add): number
///                   column(n, 1): number  comparison(greater): bool
/// ```
///
/// Invariant: the nodes are in postfix order and form exactly one tree (operands before their
/// operator; a leaf takes no operand, `negate`/`not` one, a binary operator two, a call its
/// argument count); each node's type is the one the checker's rules give from its operands'
/// types; a column's position is set exactly when the formula was checked against a schema.
package struct TypedFormula: Sendable {
  /// What a node computes.
  package enum Operation: Sendable, Hashable {
    case integer(Int64)
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    /// A column by name, and its position in the schema (nil when checked without one).
    case column(String, position: Int?)
    case negate
    case not
    case arithmetic(RowArithmetic)
    case comparison(RowComparison)
    case and
    case or
    /// A call of a function of ``FormulaBuiltin/table`` with this many arguments.
    case call(FormulaBuiltin.Operation, arguments: Int)

    /// How many operands the node takes from the values before it.
    var operandCount: Int {
      switch self {
      case .integer, .number, .string, .bool, .null, .column: 0
      case .negate, .not: 1
      case .arithmetic, .comparison, .and, .or: 2
      case .call(_, let arguments): arguments
      }
    }
  }

  /// One node of the tree: what it computes and the type of its value.
  package struct Node: Sendable, Hashable {
    package let operation: Operation
    package let type: RowType
    /// The UTF-8 offset in the source of the node's token, for messages.
    let offset: Int
  }

  /// The formula text.
  package let source: String
  /// The nodes in postfix order.
  package let nodes: [Node]

  /// The type of the formula's value.
  package var resultType: RowType { nodes.last?.type ?? .null }
}
