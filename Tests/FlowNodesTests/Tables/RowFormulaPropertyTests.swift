import Foundation
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The column-at-a-time evaluator against a simple per-row reference interpreter written here,
/// over random tables and random well-typed formulas.
@Suite struct RowFormulaPropertyTests {
  /// A generated formula: its text and a reference tree evaluated row by row.
  indirect enum Expr {
    case literal(Cell)
    case column(Int)
    case arithmetic(String, Expr, Expr)
    case negate(Expr)
    case function(String, [Expr])
    case comparison(String, Expr, Expr)
    case and(Expr, Expr), or(Expr, Expr), not(Expr)
    case isNull(Expr)
    case choose(Expr, Expr, Expr, RowType)
  }

  struct Overflow: Error {}

  enum Kind { case numeric, bool, string }

  struct Generator {
    var random: SeededRandom
    let columns: [CellColumn]

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// A formula of `kind` (numeric formulas may be integer, number or null), its text and type.
    mutating func make(_ kind: Kind, depth: Int) -> (text: String, expr: Expr, type: RowType) {
      let leaf = depth <= 0 || int(3) == 0
      switch kind {
      case .numeric:
        if leaf {
          switch int(5) {
          case 0: let n = Int64(int(20)); return ("\(n)", .literal(.integer(n)), .integer)
          case 1: let x = Double(int(40)) / 4; return ("\(x)", .literal(.number(x)), .number)
          case 2: return ("null", .literal(.null), .null)
          default: return column(where: { $0 == .integer || $0 == .number })
          }
        }
        switch int(6) {
        case 0, 1:
          let op = ["+", "-", "*", "/", "%", "^"][int(6)]
          let a = make(.numeric, depth: depth - 1), b = make(.numeric, depth: depth - 1)
          return (
            "(\(a.text) \(op) \(b.text))", .arithmetic(op, a.expr, b.expr),
            RowFormulaChecker.arithmeticType(Self.arithmetic(op), a.type, b.type)
          )
        case 2:
          let a = make(.numeric, depth: depth - 1)
          return ("(-(\(a.text)))", .negate(a.expr), a.type)  // `-a ^ b` would be `-(a ^ b)`
        case 3:
          let name = ["sqrt", "abs", "min", "max", "floor", "round", "clamp", "pow"][int(8)]
          let count = name == "clamp" ? 3 : (name == "pow" ? 2 : (name == "min" || name == "max") ? 1 + int(3) : 1)
          let arguments = (0..<count).map { _ in make(.numeric, depth: depth - 1) }
          let type: RowType = arguments.contains { $0.type == .null } ? .null : .number
          return (
            "\(name)(\(arguments.map(\.text).joined(separator: ", ")))", .function(name, arguments.map(\.expr)), type
          )
        default:
          return choose(.numeric, depth: depth)
        }
      case .bool:
        if leaf {
          switch int(4) {
          case 0: let b = int(2) == 0; return ("\(b)", .literal(.bool(b)), .bool)
          case 1: return ("null", .literal(.null), .null)
          default: return column(where: { $0 == .bool })
          }
        }
        switch int(7) {
        case 0, 1:
          let op = ["<", "<=", "==", "!=", ">=", ">"][int(6)]
          let operandKind: Kind = [.numeric, .numeric, .string, .bool][int(4)]
          let a = make(operandKind, depth: depth - 1), b = make(operandKind, depth: depth - 1)
          return (
            "(\(a.text) \(op) \(b.text))", .comparison(op, a.expr, b.expr),
            a.type == .null || b.type == .null ? .null : .bool
          )
        case 2:
          let a = make(.bool, depth: depth - 1), b = make(.bool, depth: depth - 1)
          return ("(\(a.text) and \(b.text))", .and(a.expr, b.expr), .bool)
        case 3:
          let a = make(.bool, depth: depth - 1), b = make(.bool, depth: depth - 1)
          return ("(\(a.text) or \(b.text))", .or(a.expr, b.expr), .bool)
        case 4:
          let a = make(.bool, depth: depth - 1)
          return ("not (\(a.text))", .not(a.expr), a.type == .null ? .null : .bool)
        case 5:
          let a = make([.numeric, .string, .bool][int(3)], depth: depth - 1)
          return ("isNull(\(a.text))", .isNull(a.expr), .bool)
        default:
          return choose(.bool, depth: depth)
        }
      case .string:
        if leaf || int(2) == 0 {
          switch int(4) {
          case 0:
            let text = ["", "a", "B", "é", "e\u{301}", "😀", "\u{FFFF}", "ab", "quote\"", "back\\"][int(10)]
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return ("\"\(escaped)\"", .literal(.string(text)), .string)
          case 1: return ("null", .literal(.null), .null)
          default: return column(where: { $0 == .string })
          }
        }
        return choose(.string, depth: depth)
      }
    }

    mutating func choose(_ kind: Kind, depth: Int) -> (text: String, expr: Expr, type: RowType) {
      let c = make(.bool, depth: depth - 1), a = make(kind, depth: depth - 1), b = make(kind, depth: depth - 1)
      let type = RowFormulaChecker.unify(a.type, b.type) ?? .null
      return ("if(\(c.text), \(a.text), \(b.text))", .choose(c.expr, a.expr, b.expr, type), type)
    }

    mutating func column(where accepts: (RowType) -> Bool) -> (text: String, expr: Expr, type: RowType) {
      let candidates = columns.indices.filter { accepts(columns[$0].type) }
      let index = candidates[int(candidates.count)]
      let name = columns[index].name
      let text = name.contains(" ") || int(2) == 0 ? "`\(name)`" : name
      return (text, .column(index), columns[index].type)
    }

    static func arithmetic(_ op: String) -> RowArithmetic {
      switch op {
      case "+": .add
      case "-": .subtract
      case "*": .multiply
      case "/": .divide
      case "%": .remainder
      default: .power
      }
    }
  }

  // MARK: - Reference interpreter (one row at a time, every argument evaluated)

  static func reference(_ expr: Expr, row: Int, columns: [CellColumn]) throws -> Cell {
    switch expr {
    case .literal(let cell): return cell
    case .column(let index): return columns[index].cells[row]
    case .arithmetic(let op, let a, let b):
      let x = try reference(a, row: row, columns: columns), y = try reference(b, row: row, columns: columns)
      if x == .null || y == .null { return .null }
      if case .integer(let m) = x, case .integer(let n) = y, ["+", "-", "*"].contains(op) {
        let (value, overflow) =
          op == "+"
          ? m.addingReportingOverflow(n)
          : op == "-" ? m.subtractingReportingOverflow(n) : m.multipliedReportingOverflow(by: n)
        if overflow { throw Overflow() }
        return .integer(value)
      }
      let (p, q) = (number(x), number(y))
      switch op {
      case "+": return .number(p + q)
      case "-": return .number(p - q)
      case "*": return .number(p * q)
      case "/": return q == 0 ? .null : .number(p / q)
      case "%": return q == 0 ? .null : .number(p.truncatingRemainder(dividingBy: q))
      default: return .number(Foundation.pow(p, q))
      }
    case .negate(let a):
      switch try reference(a, row: row, columns: columns) {
      case .integer(let n):
        if n == .min { throw Overflow() }
        return .integer(-n)
      case .number(let x): return .number(-x)
      default: return .null
      }
    case .function(let name, let arguments):
      let values = try arguments.map { try reference($0, row: row, columns: columns) }
      if values.contains(.null) { return .null }
      let xs = values.map(number)
      func nanMin(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : Swift.min(a, b) }
      func nanMax(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : Swift.max(a, b) }
      switch name {
      case "sqrt": return .number(xs[0].squareRoot())
      case "abs": return .number(Swift.abs(xs[0]))
      case "floor": return .number(xs[0].rounded(.down))
      case "round": return .number(xs[0].rounded(.toNearestOrAwayFromZero))
      case "min": return .number(xs.dropFirst().reduce(xs[0], nanMin))
      case "max": return .number(xs.dropFirst().reduce(xs[0], nanMax))
      case "clamp": return .number(nanMin(nanMax(xs[0], xs[1]), xs[2]))
      default: return .number(Foundation.pow(xs[0], xs[1]))
      }
    case .comparison(let op, let a, let b):
      let x = try reference(a, row: row, columns: columns), y = try reference(b, row: row, columns: columns)
      if x == .null || y == .null { return .null }
      let order: Int?
      switch (x, y) {
      case (.integer(let m), .integer(let n)): order = m < n ? -1 : (m == n ? 0 : 1)
      case (.string(let s), .string(let t)):
        order =
          s.unicodeScalars.lexicographicallyPrecedes(t.unicodeScalars, by: { $0.value < $1.value })
          ? -1
          : (Array(s.unicodeScalars) == Array(t.unicodeScalars) ? 0 : 1)
      case (.bool(let p), .bool(let q)): order = p == q ? 0 : (p ? 1 : -1)
      default:
        let (p, q) = (number(x), number(y))
        order = p < q ? -1 : (p == q ? 0 : (p > q ? 1 : nil))  // nil: NaN, unordered
      }
      guard let order else { return .bool(op == "!=") }
      switch op {
      case "<": return .bool(order < 0)
      case "<=": return .bool(order <= 0)
      case "==": return .bool(order == 0)
      case "!=": return .bool(order != 0)
      case ">=": return .bool(order >= 0)
      default: return .bool(order > 0)
      }
    case .and(let a, let b):
      let x = try reference(a, row: row, columns: columns), y = try reference(b, row: row, columns: columns)
      if x == .bool(false) || y == .bool(false) { return .bool(false) }
      if x == .null || y == .null { return .null }
      return .bool(true)
    case .or(let a, let b):
      let x = try reference(a, row: row, columns: columns), y = try reference(b, row: row, columns: columns)
      if x == .bool(true) || y == .bool(true) { return .bool(true) }
      if x == .null || y == .null { return .null }
      return .bool(false)
    case .not(let a):
      if case .bool(let b) = try reference(a, row: row, columns: columns) { return .bool(!b) }
      return .null
    case .isNull(let a):
      return .bool(try reference(a, row: row, columns: columns) == .null)
    case .choose(let c, let a, let b, let type):
      let condition = try reference(c, row: row, columns: columns)
      let x = try reference(a, row: row, columns: columns), y = try reference(b, row: row, columns: columns)
      let picked = condition == .bool(true) ? x : y
      if type == .number, case .integer(let n) = picked { return .number(Double(n)) }
      return picked
    }
  }

  static func number(_ cell: Cell) -> Double {
    switch cell {
    case .integer(let n): Double(n)
    case .number(let x): x
    default: .nan
    }
  }

  // MARK: - Random tables

  static func randomTable(_ random: inout SeededRandom) -> [CellColumn] {
    let rows = Int(random.next() % 12)
    func cells(_ make: (inout SeededRandom) -> Cell) -> [Cell] {
      (0..<rows).map { _ in random.next() % 4 == 0 ? .null : make(&random) }
    }
    return [
      CellColumn("i", .integer, cells { .integer(Int64($0.next() % 21) - 10) }),
      CellColumn(
        "big", .integer, cells { $0.next() % 3 == 0 ? .integer(Int64.max - 1) : .integer(Int64($0.next() % 1000)) }),
      CellColumn("x", .number, cells { .number([0, -0.5, 1.5, 2, .nan, .infinity, 3.25][Int($0.next() % 7)]) }),
      CellColumn("flag", .bool, cells { .bool($0.next() % 2 == 0) }),
      CellColumn("s", .string, cells { .string(["", "a", "B", "é", "😀", "ab"][Int($0.next() % 6)]) }),
      CellColumn("body mass", .number, cells { .number(Double($0.next() % 50) * 100) })
    ]
  }

  @Test(arguments: 0..<400)
  func columnEvaluationMatchesRowByRowReference(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
    let columns = Self.randomTable(&random)
    let rows = columns[0].cells.count
    var generator = Generator(random: random, columns: columns)
    let kind: Kind = [.numeric, .bool, .string][seed % 3]
    let (text, expr, type) = generator.make(kind, depth: 4)

    let formula = try RowFormula(parsing: text)
    let program = try formula.compile(for: RowSchema(names: columns.map(\.name), types: columns.map(\.type)))
    #expect(program.resultType == type, "\(text)")

    var expected: [Cell]? = []
    do {
      for row in 0..<rows { expected?.append(try Self.reference(expr, row: row, columns: columns)) }
    } catch {
      expected = nil
    }
    let actual: [Cell]?
    do {
      actual = try program.evaluate(columns: columns.map(\.vector), rowCount: rows).cells(count: rows)
    } catch {
      #expect(error.message.hasPrefix("integer overflow"), "\(text): \(error)")
      actual = nil
    }
    guard let expected, let actual else {
      #expect(expected == nil && actual == nil, "\(text): one side overflowed")
      return
    }
    #expect(actual.count == expected.count)
    for (row, (a, e)) in zip(actual, expected).enumerated() {
      #expect(a.matches(e), "\(text) row \(row): got \(a), expected \(e)")
    }
  }
}
