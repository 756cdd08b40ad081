import Foundation
import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The shared front end against tiny reference interpreters written here: random well-formed
/// formulas, written with as few parentheses as precedence allows, parsed into the one syntax
/// tree; the tree evaluated by the reference must agree with the generated formula itself and
/// with what each back end computes (`expression`'s program, the column-at-a-time row program).
@Suite struct FormulaFrontEndPropertyTests {
  struct DivisionByZero: Error {}

  // MARK: - Scalar reference

  static func scalarBinary(_ op: String, _ a: Double, _ b: Double) throws -> Double {
    switch op {
    case "+": return a + b
    case "-": return a - b
    case "*": return a * b
    case "/":
      if b == 0 { throw DivisionByZero() }
      return a / b
    case "%":
      if b == 0 { throw DivisionByZero() }
      return fmod(a, b)
    default: return pow(a, b)
    }
  }

  static func scalarCall(_ name: String, _ x: [Double]) -> Double {
    func least(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : (b < a ? b : a) }
    func most(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : (b > a ? b : a) }
    switch name {
    case "sqrt": return sqrt(x[0])
    case "abs": return Swift.abs(x[0])
    case "floor": return floor(x[0])
    case "ceil": return ceil(x[0])
    case "round" where x.count == 2: return formulaRound(x[0], digits: x[1])
    case "round": return round(x[0])  // C's round: halves away from zero
    case "sin": return sin(x[0])
    case "cos": return cos(x[0])
    case "tan": return tan(x[0])
    case "log": return log(x[0])
    case "exp": return exp(x[0])
    case "pow": return pow(x[0], x[1])
    case "hypot": return hypot(x[0], x[1])
    case "min": return x.dropFirst().reduce(x[0], least)
    case "max": return x.dropFirst().reduce(x[0], most)
    case "clamp": return least(most(x[0], x[1]), x[2])
    default: Issue.record("no reference for \(name)"); return .nan
    }
  }

  /// The generated formula's value, straight from the generator's tree.
  static func evaluate(_ formula: GeneratedFormula, _ values: [String: Double]) throws -> Double {
    switch formula {
    case .literal("pi"): return Double.pi
    case .literal("e"): return M_E
    case .literal(let text): return Double(text)!
    case .name(let name, _): return values[name]!
    case .negate(let operand): return -(try evaluate(operand, values))
    case .binary(let op, let a, let b): return try scalarBinary(op, evaluate(a, values), evaluate(b, values))
    case .call(let name, let arguments): return scalarCall(name, try arguments.map { try evaluate($0, values) })
    case .not: Issue.record("not in the calculator language"); return .nan
    }
  }

  /// The syntax tree's value, by a stack over its postfix nodes.
  static func evaluate(_ syntax: FormulaSyntax, _ values: [String: Double]) throws -> Double {
    var stack: [Double] = []
    for node in syntax.nodes {
      switch node {
      case .number(let value, _): stack.append(value)
      case .name(let name): stack.append(values[name]!)
      case .prefix(.negate): stack.append(-stack.removeLast())
      case .binary(.arithmetic(let op)):
        let b = stack.removeLast(), a = stack.removeLast()
        stack.append(try scalarBinary(op.symbol, a, b))
      case .call(let id, let count):
        let arguments = Array(stack.suffix(count))
        stack.removeLast(count)
        stack.append(scalarCall(FormulaBuiltin[id].name, arguments))
      default:
        Issue.record("\(node) in a scalar tree")
      }
    }
    #expect(stack.count == 1)
    return stack[0]
  }

  static func same(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a == b || (a.isNaN && b.isNaN)
  }

  @Test(arguments: 0..<300)
  func scalarTreeAndProgramAgreeWithTheReference(seed: Int) throws {
    var draw = FormulaDraw(random: SeededRandom(seed: UInt64(seed) &* 6271 &+ 3))
    let names = ["a", "b", "x", "y_1"]
    let generated = draw.scalar(depth: 1 + draw.int(5), names: names)
    let text = generated.text
    var parser = FormulaParser(text, context: .scalar)
    let syntax = try parser.parse()
    let formula = try Formula(parsing: text)
    for _ in 0..<4 {
      let values = Dictionary(uniqueKeysWithValues: names.map { ($0, draw.pick([1, -2, 0.5, 3, 7, 0, -0.25])) })
      let expected = try? Self.evaluate(generated, values)
      let fromTree = try? Self.evaluate(syntax, values)
      let fromProgram = try? formula.evaluate(formula.variables.map { values[$0]! })
      #expect(
        Self.same(fromTree, expected),
        "\(text): tree \(String(describing: fromTree)), expected \(String(describing: expected))")
      #expect(
        Self.same(fromProgram, expected),
        "\(text): program \(String(describing: fromProgram)), expected \(String(describing: expected))")
    }
    #expect(formula.variables == syntax.names)
  }

  @Test func suggestionsAreTheNearestFunctionNames() {
    #expect(FormulaBuiltin.suggestions(for: "sqr", in: .scalar) == ["sqrt"])
    #expect(FormulaBuiltin.suggestions(for: "Sqrt", in: .scalar) == ["sqrt"])
    #expect(FormulaBuiltin.suggestions(for: "isnull", in: .row) == ["isNull"])
    #expect(FormulaBuiltin.suggestions(for: "isnull", in: .scalar).isEmpty)
    #expect(FormulaBuiltin.suggestions(for: "lgo", in: .scalar).contains("log"))
    #expect(FormulaBuiltin.suggestions(for: "foo", in: .row).isEmpty)
    #expect(Suggestion.editDistance("kitten", "sitting", limit: 5) == 3)
  }

  @Test func theFunctionTableHasUniqueNamesADescriptionAndAnExample() {
    #expect(Set(FormulaBuiltin.table.map(\.name)).count == FormulaBuiltin.table.count)
    for function in FormulaBuiltin.table {
      let written = function.example.hasPrefix(function.name + "(") || function.example.contains(" \(function.name) (")
      #expect(!function.summary.isEmpty && written, "\(function.name)")
      #expect(FormulaBuiltin.lookUp(function.name, in: .row) != nil)
    }
    for function in FormulaFunction.allCases {
      #expect(
        FormulaBuiltin.lookUp(function.name, in: .scalar).map { FormulaBuiltin[$0].operation } == .numeric(function))
    }
    #expect(FormulaBuiltin.lookUp("if", in: .scalar) == nil)
  }
}
