import FlowTestSupport
import FlowRuntime
import Testing
@testable import FlowNodes

/// A `derive`'s later formulas read the columns of earlier ones that they contain whole
/// (`RowProgram.reading`): one `derive` of several entries against a chain of one-entry
/// `derive`s (which share nothing), over random formulas that reuse, replace and shadow
/// columns, and the sharing itself on TPC-H Q1's two formulas.
@Suite struct DeriveSharingTests {
  private func derive(_ entries: [(String, String)]) throws -> TablePipeline {
    try TablePipeline(
      "derive", ["columns": .object(JSONObject(entries.map { JSONMember(key: $0.0, value: .string($0.1)) }))])
  }

  @Test(arguments: 0..<150)
  func oneDeriveEqualsAChainOfOneEntryDerives(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
    let columns = RowFormulaPropertyTests.randomTable(&random)
    var generator = RowFormulaPropertyTests.Generator(random: random, columns: columns)
    let kinds: [RowFormulaPropertyTests.Kind] = [.numeric, .numeric, .bool, .string]
    let (shared, _, _) = generator.make(kinds[seed % 4], depth: 2)
    let (other, _, _) = generator.make(.numeric, depth: 1)
    // The shared formula, then entries that contain it whole, around entries that replace
    // its output or a column it may read (`i`, `x`) or leave everything alone.
    let names = ["d", "i", "x", "e"]
    var entries: [(String, String)] = [(names[seed % names.count], shared)]
    for step in 0..<3 {
      let name = names[Int(generator.random.next() % UInt64(names.count))]
      switch (seed + step) % 3 {
      case 0: entries.append((name, "isNull(\(shared))"))
      case 1: entries.append((name, other))
      default: entries.append((name, "coalesce(\(shared), \(shared))"))
      }
    }
    let table = try Table(columns)
    var whole = try derive(entries)
    let together = try whole.run(table)
    var chained: Table? = table
    var failure: String?
    for entry in entries {
      guard let input = chained else { break }
      var one = try derive([entry])
      let outcome = try one.run(input)
      chained = outcome.table
      failure = outcome.failure
    }
    #expect((together.failure == nil) == (failure == nil), "\(entries): \(together.failure ?? "") / \(failure ?? "")")
    guard let expected = chained, let actual = together.table else { return }
    #expect(actual.columnNames == expected.columnNames, "\(entries)")
    for name in expected.columnNames {
      let (left, right) = (actual.cells(name), expected.cells(name))
      #expect(
        left.count == right.count && zip(left, right).allSatisfy { $0.matches($1) }, "\(entries), column \(name)")
    }
  }

  /// `==` on strings holds for canonically equivalent ones of other bytes; the evaluator
  /// compares bytes, so a formula with the other spelling is not the earlier one.
  @Test func aLiteralSpelledWithOtherBytesIsNotShared() throws {
    let table = try Table([CellColumn("s", .string, [.string("\u{E9}"), .string("e\u{301}")])])
    var pipeline = try derive([("d", "s == \"\u{E9}\""), ("e", "(s == \"e\u{301}\") or false")])
    let result = try #require(try pipeline.run(table).table)
    #expect(result.cells("d") == [.bool(true), .bool(false)])
    #expect(result.cells("e") == [.bool(false), .bool(true)])
    let schema = RowSchema(names: ["s", "d"], types: [.string, .bool])
    let composed = try RowFormula(parsing: "s == \"\u{E9}\"").compile(for: schema)
    let decomposed = try RowFormula(parsing: "(s == \"e\u{301}\") or false").compile(for: schema)
    #expect(decomposed.reading(composed, from: 1).instructions == decomposed.instructions)
  }

  /// Equal instructions of other bytes: zeros of both signs, canonically equivalent texts
  /// and column names (in a date function's sources too), inside every instruction that
  /// holds a literal; equal ones of the same bytes are identical.
  @Test func equalInstructionsOfOtherBytesAreNotIdentical() {
    let pairs: [(RowFormulaStep, RowFormulaStep)] = [
      (.number(0.0), .number(-0.0)), (.string("\u{E9}"), .string("e\u{301}")),
      (.column("\u{E9}"), .column("e\u{301}")), (.date(.year, sources: ["\u{E9}"]), .date(.year, sources: ["e\u{301}"]))
    ]
    for (one, other) in pairs {
      let wrapped: [(RowFormulaStep) -> RowInstruction] = [
        { .step($0) }, { .compareWithLiteral(.equal, $0) }, { .arithmeticWithLiteral(.add, $0) },
        { .literalArithmetic(.add, $0) }, { .memberOfLiterals([.integer(1), $0]) }
      ]
      for wrap in wrapped {
        #expect(wrap(one) == wrap(other), "equal, as Swift compares them")
        #expect(!RowProgram.identical(wrap(one), wrap(other)))
        #expect(RowProgram.identical(wrap(one), wrap(one)))
      }
    }
    #expect(RowProgram.identical(.column(3), .column(3)))
    #expect(!RowProgram.identical(.column(3), .column(4)))
    #expect(!RowProgram.identical(.step(.number(1)), .step(.integer(1))))
  }

  @Test func theChargeFormulaReadsTheDiscountedPrice() throws {
    let schema = RowSchema(names: ["price", "discount", "tax"], types: [.number, .number, .number])
    let discounted = try RowFormula(parsing: "price * (1 - discount)").compile(for: schema)
    var wider = schema
    wider.names.append("disc_price")
    wider.types.append(.number)
    let charge = try RowFormula(parsing: "price * (1 - discount) * (1 + tax)").compile(for: wider)
    let shared = charge.reading(discounted, from: 3)
    #expect(shared.instructions.count == charge.instructions.count - discounted.instructions.count + 1)
    #expect(shared.instructions.first == .column(3))
    // A formula without the earlier one whole is left as it is.
    let other = try RowFormula(parsing: "price * (1 + tax)").compile(for: wider)
    #expect(other.reading(discounted, from: 3).instructions == other.instructions)
  }
}
