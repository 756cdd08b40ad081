import FlowGraph

/// The column names and types of a table, as a row formula sees them.
struct RowSchema: Sendable, Hashable {
  var names: [String]
  var types: [RowType]

  /// The bounded list for a message: `a, b, c` (at most 20 names, then `… N more`).
  var listing: String {
    let shown = names.prefix(20).joined(separator: ", ")
    return names.count > 20 ? "\(shown), … \(names.count - 20) more" : shown
  }
}

/// The checker of row formulas: type-checks a ``RowFormula``'s syntax tree and resolves its
/// column names against a schema, giving the ``TypedFormula`` both back ends consume (the
/// ``RowProgram`` the table evaluator runs, and the SQL translator). One pass over the tree's
/// postfix nodes with a type stack; a call is typed by its ``FormulaBuiltin/Typing`` rule.
enum RowFormulaChecker {
  /// - Parameter schema: the table's columns, or nil to check only what literals determine.
  /// - Throws: a ``FormulaError``: a type error with the column of the operator, or
  ///   `no column 'x' in the table (columns: a, b, c)` (`(did you mean 'y'?)` instead of the
  ///   list when a column's name is a likely typo of it).
  static func check(_ formula: RowFormula, schema: RowSchema?) throws(FormulaError) -> TypedFormula {
    var index: [String: Int] = [:]
    if let schema {
      for (position, name) in schema.names.enumerated() where index[name] == nil { index[name] = position }
    }
    return try check(formula, schema: schema, index: index)
  }

  /// `check(_:schema:)` with the schema's positions by name already built (`index[name]` is
  /// the first position of `name`): a node checking many formulas against one growing schema
  /// (`derive`) keeps one index instead of building one per formula.
  ///
  /// - Complexity: O(nodes of the formula), whatever the schema's size.
  static func check(_ formula: RowFormula, schema: RowSchema?, index: [String: Int]) throws(FormulaError)
    -> TypedFormula
  {
    try check(formula.syntax, schema: schema, index: index)
  }

  /// `check(_:schema:index:)` of a syntax tree: a row formula's, or the calculator language's
  /// (``ScalarFormulaChecker`` types its variables as `number` columns of one row).
  static func check(_ syntax: FormulaSyntax, schema: RowSchema?, index: [String: Int]) throws(FormulaError)
    -> TypedFormula
  {
    var types: [RowType] = []
    var nodes: [TypedFormula.Node] = []
    nodes.reserveCapacity(syntax.nodes.count)
    for (position, node) in syntax.nodes.enumerated() {
      func fail(_ message: String) -> FormulaError { syntax.error(message, atNode: position) }
      let operation: TypedFormula.Operation
      switch node {
      case .number(let value, let integer):
        operation = integer.map { .integer($0) } ?? .number(value)
        types.append(integer == nil ? .number : .integer)
      case .string(let text):
        operation = .string(text)
        types.append(.string)
      case .bool(let value):
        operation = .bool(value)
        types.append(.bool)
      case .null:
        operation = .null
        types.append(.null)
      case .name(let name):
        if let schema {
          guard let column = index[name] else {
            throw FormulaError(
              message: Self.likelyTypo(of: name, among: schema.names).map {
                "no column '\(name)' in the table (did you mean '\($0)'?)"
              } ?? "no column '\(name)' in the table (columns: \(schema.listing))")
          }
          operation = .column(name, position: column)
          types.append(schema.types[column])
        } else {
          operation = .column(name, position: nil)
          types.append(.unknown)
        }
      case .prefix(.negate):
        operation = .negate
        let operand = types.removeLast()
        guard operand.fits(\.isNumeric) else { throw fail("'-' needs a number, got \(operand)") }
        types.append(operand)
      case .prefix(.not):
        operation = .not
        let operand = types.removeLast()
        guard operand.fits({ $0 == .bool }) else { throw fail("'not' needs a bool, got \(operand)") }
        types.append(operand == .null ? .null : .bool)
      case .binary(.arithmetic(let op)):
        operation = .arithmetic(op)
        let right = types.removeLast(), left = types.removeLast()
        guard left.fits(\.isNumeric), right.fits(\.isNumeric) else {
          throw fail("'\(op.symbol)' needs numbers, got \(left) and \(right)")
        }
        types.append(arithmeticType(op, left, right))
      case .binary(.comparison(let op)):
        operation = .comparison(op)
        let right = types.removeLast(), left = types.removeLast()
        guard comparable(left, right) else {
          throw fail("cannot compare \(left) with \(right) using '\(op.symbol)'")
        }
        types.append(left == .null || right == .null ? .null : .bool)
      case .binary(.and), .binary(.or):
        let isAnd = node == .binary(.and)
        operation = isAnd ? .and : .or
        let right = types.removeLast(), left = types.removeLast()
        guard left.fits({ $0 == .bool }), right.fits({ $0 == .bool }) else {
          throw fail("'\(isAnd ? "and" : "or")' needs bools, got \(left) and \(right)")
        }
        types.append(.bool)
      case .call(let id, let arguments):
        let function = FormulaBuiltin[id]
        operation = .call(function.operation, arguments: arguments)
        try callType(function, arguments: arguments, types: &types, fail: fail)
      }
      nodes.append(
        TypedFormula.Node(operation: operation, type: types[types.count - 1], offset: syntax.offsets[position]))
    }
    return TypedFormula(source: syntax.source, nodes: nodes)
  }

  /// The column `name` is a likely typo of: the closest by ``Suggestion``, unless reaching it
  /// rewrites the whole name (`x` is no typo of `a`).
  private static func likelyTypo(of name: String, among names: [String]) -> String? {
    let length = name.unicodeScalars.count
    guard let close = Suggestion.closest(to: name, among: names),
      Suggestion.editDistance(name.lowercased(), close.lowercased(), limit: length) < length
    else { return nil }
    return close
  }

  /// Replaces the argument types on top of `types` by the type of a call of `function`.
  ///
  /// - Throws: `fail`'s error when an argument has the wrong type.
  private static func callType(
    _ function: FormulaBuiltin, arguments: Int, types: inout [RowType], fail: (String) -> FormulaError
  ) throws(FormulaError) {
    switch function.typing {
    case .numbers:
      let operands = types.suffix(arguments)
      types.removeLast(arguments)
      if let bad = operands.first(where: { !$0.fits(\.isNumeric) }) {
        throw fail("'\(function.name)' needs numbers, got \(bad)")
      }
      types.append(operands.contains(.null) ? .null : .number)
    case .dates:
      guard case .date(let date) = function.operation else {
        preconditionFailure("Internal inconsistency: date typing without a date operation")
      }
      let operands = Array(types.suffix(arguments))
      types.removeLast(arguments)
      for (argument, type) in zip(date.arguments, operands) where !argument.accepts(type) {
        throw fail("'\(function.name)' needs \(argument.phrase), got \(type)")
      }
      types.append(operands.contains(.null) ? .null : date.result)
    case .nullTest:
      types.removeLast(arguments)
      types.append(.bool)
    case .choice:
      let otherwise = types.removeLast(), then = types.removeLast(), condition = types.removeLast()
      guard condition.fits({ $0 == .bool }) else {
        throw fail("'\(function.name)' needs a bool condition, got \(condition)")
      }
      guard let unified = unify(then, otherwise) else {
        throw fail("the branches of '\(function.name)' have different types: \(then) and \(otherwise)")
      }
      types.append(unified)
    case .fixed(let kinds, let result):
      try fixedType(function, kinds: kinds, result: result, arguments: arguments, types: &types, fail: fail)
    case .common:
      let operands = types.suffix(arguments)
      types.removeLast(arguments)
      var common = RowType.null
      for operand in operands {
        guard let unified = unify(common, operand) else {
          throw fail("the arguments of '\(function.name)' have different types: \(common) and \(operand)")
        }
        common = unified
      }
      types.append(common)
    case .membership:
      let operands = Array(types.suffix(arguments))
      types.removeLast(arguments)
      if let item = operands.dropFirst().first(where: { !comparable(operands[0], $0) }) {
        throw fail("cannot look for \(operands[0]) among \(item) items with 'in'")
      }
      types.append(operands[0] == .null ? .null : .bool)
    }
  }

  /// The type of a call with ``FormulaBuiltin/Typing/fixed(_:result:)`` typing.
  private static func fixedType(
    _ function: FormulaBuiltin, kinds: [FormulaValueKind], result: FormulaValueKind, arguments: Int,
    types: inout [RowType], fail: (String) -> FormulaError
  ) throws(FormulaError) {
    let operands = Array(types.suffix(arguments))
    types.removeLast(arguments)
    for (position, operand) in operands.enumerated() {
      let kind = kinds[min(position, kinds.count - 1)]
      let fits: Bool
      switch kind {
      case .integer, .number: fits = operand.fits(\.isNumeric)
      case .string: fits = operand.fits { $0 == .string }
      case .bool: fits = operand.fits { $0 == .bool }
      case .any: fits = true
      }
      guard fits else {
        let wanted = kind == .integer ? "number" : "\(kind)"
        throw fail("'\(function.name)' needs a \(wanted) as argument \(position + 1), got \(operand)")
      }
    }
    if operands.contains(.null) { return types.append(.null) }
    switch result {
    case .integer: types.append(.integer)
    case .number: types.append(.number)
    case .string: types.append(.string)
    case .bool: types.append(.bool)
    case .any: types.append(.unknown)
    }
  }

  static func arithmeticType(_ op: RowArithmetic, _ left: RowType, _ right: RowType) -> RowType {
    if left == .null || right == .null { return .null }
    switch op {
    case .add, .subtract, .multiply:
      if left == .integer && right == .integer { return .integer }
      if left == .unknown || right == .unknown { return .unknown }
      return .number
    case .divide, .remainder, .power:
      return .number
    }
  }

  static func comparable(_ left: RowType, _ right: RowType) -> Bool {
    if left == .null || right == .null || left == .unknown || right == .unknown { return true }
    if left.isNumeric && right.isNumeric { return true }
    return left == right
  }

  /// The type of `if(c, a, b)`: the common type of the branches, or nil when there is none.
  static func unify(_ left: RowType, _ right: RowType) -> RowType? {
    if left == right { return left }
    if left == .null { return right }
    if right == .null { return left }
    if left == .unknown || right == .unknown { return .unknown }
    if left.isNumeric && right.isNumeric { return .number }
    return nil
  }
}
