/// The syntax tree of a parsed formula, in either language, as one array of nodes in postfix
/// order (operands before their operator).
///
/// ```
/// a * (b + 1)   →   name(a)  name(b)  number(1)  binary(+)  binary(*)
/// ```
///
/// A node's operands are the subtrees that end just before it: a leaf takes none, a prefix
/// operator one, a binary operator two, a call its argument count. Walking the array with a
/// stack (as both checkers do) rebuilds the tree without recursion, so a formula nested
/// 100,000 deep costs memory, not machine stack; and the whole tree is one allocation.
///
/// Invariant (established by ``FormulaParser``): the nodes form exactly one tree; every call
/// has an argument count its function accepts; the node kinds are those of the language it was
/// parsed in (``FormulaContext``).
struct FormulaSyntax: Sendable, Hashable {
  /// One node of the tree.
  enum Node: Sendable, Hashable {
    /// A number literal (or `pi`, `e`), with its exact value when written with digits only
    /// and within `Int64` (an integer in row formulas).
    case number(Double, integer: Int64?)
    /// A string literal, escapes decoded (row formulas).
    case string(String)
    /// `true` or `false` (row formulas).
    case bool(Bool)
    /// `null` (row formulas).
    case null
    /// A variable (`expression`) or column (row formulas), bare or backticked.
    case name(String)
    case prefix(FormulaPrefix)
    case binary(FormulaOperator)
    /// A call of a ``FormulaBuiltin`` with this many arguments.
    case call(FormulaBuiltin.ID, arguments: Int)
  }

  /// The formula text.
  let source: String
  /// The nodes in postfix order.
  var nodes: [Node] = []
  /// The UTF-8 offset in ``source`` of each node's token (an operator's symbol, a call's
  /// function name), for messages.
  var offsets: [Int] = []

  init(source: String) {
    self.source = source
  }

  /// The 1-based character column of node `index`'s token.
  func column(ofNode index: Int) -> Int {
    FormulaLexer.column(in: source, atOffset: offsets[index])
  }

  /// The error located at node `index`'s token.
  func error(_ message: String, atNode index: Int) -> FormulaError {
    FormulaError(message: message, column: column(ofNode: index))
  }

  /// The names in order of first appearance (the variables of `expression`, the columns of a
  /// row formula).
  var names: [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for case .name(let name) in nodes where seen.insert(name).inserted {
      names.append(name)
    }
    return names
  }

  mutating func append(_ node: Node, at offset: Int) {
    nodes.append(node)
    offsets.append(offset)
  }
}
