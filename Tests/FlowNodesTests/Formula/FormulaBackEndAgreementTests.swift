import FlowRuntime
import FlowTestSupport
import Testing
@testable import FlowNodes

/// The two back ends of the one front end agree: a random numeric formula gives the same
/// values in `expression` (the scalar program, one row at a time) and as a row formula (the
/// column-at-a-time program over a table of the same values).
@Suite struct FormulaBackEndAgreementTests {
  @Test(arguments: 0..<300)
  func scalarAndColumnProgramsAgree(seed: Int) throws {
    var draw = FormulaDraw(random: SeededRandom(seed: UInt64(seed) &* 7919 &+ 11))
    let names = ["a", "b"]
    let text = draw.scalar(depth: 1 + draw.int(4), names: names).text
    let formula = try Formula(parsing: text)
    let rows = 12
    let values = names.map { _ in (0..<rows).map { _ in draw.pick([1, -2, 0.5, 3, 7, 0, -0.25, 2.675, 1250]) } }
    let program = try RowFormula(parsing: text).compile(for: RowSchema(names: names, types: [.number, .number]))
    let column = try program.evaluate(columns: values.map { .number($0, valid: nil) }, rowCount: rows)
    for row in 0..<rows {
      let scalar = try? formula.evaluate(formula.variables.map { values[names.firstIndex(of: $0)!][row] })
      let vector: Double?
      switch column {
      case .number(let x, _) where column.isValid(row): vector = x[row]
      case .integer(let n, _) where column.isValid(row): vector = Double(n[row])
      default: vector = nil
      }
      // A division by zero fails `expression` and is null in a row formula.
      guard let scalar, let vector else { continue }
      #expect(scalar == vector || (scalar.isNaN && vector.isNaN), "\(text) row \(row): \(scalar) vs \(vector)")
    }
  }
}
