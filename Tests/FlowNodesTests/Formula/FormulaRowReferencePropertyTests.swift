import Foundation
import FlowTestSupport
import Testing
@testable import FlowNodes

/// Row formulas over random small tables with nulls: the column-at-a-time program must give,
/// row by row, what evaluating the shared syntax tree one row at a time gives under SQL's null
/// rules (arithmetic and comparisons with null are null, `and`/`or` three-valued, `if(null, a,
/// b)` is `b`, a division by zero is null).
@Suite struct FormulaRowReferencePropertyTests {
  struct Overflow: Error {}

  /// The columns every generated formula may use.
  static let schema: [(name: String, type: RowType)] =
    [("a", .integer), ("b", .number), ("body mass", .number), ("s", .string), ("f", .bool)]

  static func randomTable(_ draw: inout FormulaDraw) -> [CellColumn] {
    let rows = draw.int(7)
    func cells(_ make: (inout FormulaDraw) -> Cell) -> [Cell] {
      (0..<rows).map { _ in draw.int(4) == 0 ? .null : make(&draw) }
    }
    return [
      CellColumn("a", .integer, cells { .integer(Int64($0.int(9)) - 3) }),
      CellColumn("b", .number, cells { .number($0.pick([0, 1.5, -2, 0.25, 10])) }),
      CellColumn("body mass", .number, cells { .number($0.pick([3750, 0, -1.5])) }),
      CellColumn("s", .string, cells { .string($0.pick(["", "a", "B", "é", "e\u{301}", "q\"uote"])) }),
      CellColumn("f", .bool, cells { .bool($0.int(2) == 0) })
    ]
  }

  /// One row's evaluation of the syntax tree, eagerly (every operand is evaluated, as the
  /// column-at-a-time program does, so an integer overflow anywhere fails).
  static func evaluate(_ syntax: FormulaSyntax, row: [String: Cell]) throws -> Cell {
    var stack: [Cell] = []
    for node in syntax.nodes {
      switch node {
      case .number(let value, let integer): stack.append(integer.map { .integer($0) } ?? .number(value))
      case .string(let text): stack.append(.string(text))
      case .bool(let value): stack.append(.bool(value))
      case .null: stack.append(.null)
      case .name(let name): stack.append(row[name]!)
      case .prefix(.negate):
        switch stack.removeLast() {
        case .integer(let n): stack.append(.integer(-n))
        case .number(let x): stack.append(.number(-x))
        default: stack.append(.null)
        }
      case .prefix(.not):
        if case .bool(let b) = stack.removeLast() { stack.append(.bool(!b)) } else { stack.append(.null) }
      case .binary(let op):
        let b = stack.removeLast(), a = stack.removeLast()
        stack.append(try binary(op, a, b))
      case .call(let id, let count):
        let arguments = Array(stack.suffix(count))
        stack.removeLast(count)
        stack.append(call(FormulaBuiltin[id].name, arguments))
      }
    }
    return stack[0]
  }

  static func number(_ cell: Cell) -> Double? {
    switch cell {
    case .integer(let n): Double(n)
    case .number(let x): x
    default: nil
    }
  }

  static func binary(_ op: FormulaOperator, _ a: Cell, _ b: Cell) throws -> Cell {
    switch op {
    case .and:
      if a == .bool(false) || b == .bool(false) { return .bool(false) }
      return a == .null || b == .null ? .null : .bool(true)
    case .or:
      if a == .bool(true) || b == .bool(true) { return .bool(true) }
      return a == .null || b == .null ? .null : .bool(false)
    default: break
    }
    if a == .null || b == .null { return .null }
    switch op {
    case .arithmetic(let arithmetic):
      if case .integer(let x) = a, case .integer(let y) = b, [.add, .subtract, .multiply].contains(arithmetic) {
        let (value, overflow) =
          arithmetic == .add
          ? x.addingReportingOverflow(y)
          : arithmetic == .subtract ? x.subtractingReportingOverflow(y) : x.multipliedReportingOverflow(by: y)
        if overflow { throw Overflow() }
        return .integer(value)
      }
      let x = number(a)!, y = number(b)!
      switch arithmetic {
      case .add: return .number(x + y)
      case .subtract: return .number(x - y)
      case .multiply: return .number(x * y)
      case .divide: return y == 0 ? .null : .number(x / y)
      case .remainder: return y == 0 ? .null : .number(fmod(x, y))
      case .power: return .number(pow(x, y))
      }
    case .comparison(let comparison):
      let order: Int?
      switch (a, b) {
      case (.integer(let x), .integer(let y)): order = x == y ? 0 : (x < y ? -1 : 1)
      case (.string(let x), .string(let y)):
        order = Array(x.utf8).lexicographicallyPrecedes(y.utf8) ? -1 : (Array(x.utf8) == Array(y.utf8) ? 0 : 1)
      case (.bool(let x), .bool(let y)): order = x == y ? 0 : (x ? 1 : -1)
      default:
        let x = number(a)!, y = number(b)!
        order = x == y ? 0 : (x < y ? -1 : (x > y ? 1 : nil))  // nil: NaN, unordered
      }
      guard let order else { return .bool(comparison == .notEqual) }
      return .bool(comparison.holds(order))
    case .and, .or: preconditionFailure("handled above")
    }
  }

  static func call(_ name: String, _ arguments: [Cell]) -> Cell {
    switch name {
    case "isNull": return .bool(arguments[0] == .null)
    case "if": return arguments[0] == .bool(true) ? arguments[1] : arguments[2]
    default:
      if arguments.contains(.null) { return .null }
      return .number(FormulaFrontEndPropertyTests.scalarCall(name, arguments.map { number($0)! }))
    }
  }

  /// Equal cells, an integer equal to the same number (an `if` may widen a branch), NaN to NaN.
  static func same(_ a: Cell, _ b: Cell) -> Bool {
    if case .string(let x) = a, case .string(let y) = b { return Array(x.utf8) == Array(y.utf8) }
    if let x = number(a), let y = number(b) { return x == y || (x.isNaN && y.isNaN) }
    return a == b
  }

  @Test(arguments: 0..<300)
  func columnProgramAgreesWithTheTreeRowByRow(seed: Int) throws {
    var draw = FormulaDraw(random: SeededRandom(seed: UInt64(seed) &* 104_729 &+ 11))
    let columns = Self.randomTable(&draw)
    let kind: FormulaDraw.Kind = draw.pick([.numeric, .bool, .bool, .string])
    let text = draw.row(kind, depth: 1 + draw.int(4)).text
    let formula = try RowFormula(parsing: text)
    let count = columns[0].cells.count
    let program = try formula.compile(for: RowSchema(names: columns.map(\.name), types: columns.map(\.type)))
    let rows = (0..<count).map { row in
      Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.cells[row]) })
    }
    let expected = try? rows.map { try Self.evaluate(formula.syntax, row: $0) }
    guard let expected else {
      #expect(throws: FormulaError.self, "\(text)") {
        try program.evaluate(columns: columns.map(\.vector), rowCount: count)
      }
      return
    }
    let actual = try program.evaluate(columns: columns.map(\.vector), rowCount: count).cells(count: count)
    for row in 0..<count {
      #expect(Self.same(actual[row], expected[row]), "\(text), row \(row): \(actual[row]) vs \(expected[row])")
    }
  }
}
