import Foundation
import FlowGraph
import FlowTestSupport
@testable import FlowRuntime
import Testing
@testable import FlowNodes

/// `filter` through the registry: rows kept, nulls, empty tables, errors, schema changes.
@Suite struct FilterNodeTests {
  private let penguins: [CellColumn] = [
    CellColumn(
      "species", .string, [.string("Adelie"), .string("Gentoo"), .null, .string("Adelie"), .string("Chinstrap")]),
    CellColumn("body mass", .integer, [.integer(3750), .integer(5000), .integer(4000), .null, .integer(3500)]),
    CellColumn("bill", .number, [.number(39.1), .number(47.5), .null, .number(36.7), .number(46.5)])
  ]

  @Test func keepsTheRowsWhereTheFormulaIsTrueInOrder() throws {
    var pipeline = try TablePipeline("filter", ["where": "species == \"Adelie\" or `body mass` > 3900"])
    let outcome = try pipeline.run(try Table(penguins))
    #expect(outcome.failure == nil)
    #expect(outcome.ran == ["node", "source"])
    let table = try #require(outcome.table)
    // Row 2 (null species, 4000) is kept through `or`; row 3 (Adelie, null mass) too.
    #expect(table.cells("species") == [.string("Adelie"), .string("Gentoo"), .null, .string("Adelie")])
    #expect(table.cells("body mass") == [.integer(3750), .integer(5000), .integer(4000), .null])
    #expect(table.columnNames == ["species", "body mass", "bill"])
  }

  @Test func nullAndFalseRowsAreDropped() throws {
    var pipeline = try TablePipeline("filter", ["where": "bill > 40"])
    let table = try #require(try pipeline.run(try Table(penguins)).table)
    #expect(table.cells("bill") == [.number(47.5), .number(46.5)])
    var nullFilter = try TablePipeline("filter", ["where": "null"])
    #expect(try nullFilter.run(try Table(penguins)).table?.rowCount == 0)
  }

  @Test func keepingEveryRowPassesTheSameTableOn() throws {
    let input = try Table(penguins)
    var pipeline = try TablePipeline("filter", ["where": "true or isNull(species)"])
    let output = try #require(try pipeline.run(input).table)
    #expect(output.sharesStorage(with: input))
  }

  @Test func anEmptyTableGivesAnEmptyTableWithItsColumns() throws {
    let empty = try Table(penguins.map { CellColumn($0.name, $0.type, []) })
    var pipeline = try TablePipeline("filter", ["where": "`body mass` > 1"])
    let output = try #require(try pipeline.run(empty).table)
    #expect(output.rowCount == 0)
    #expect(output.columnNames == ["species", "body mass", "bill"])
    #expect(output.columns.map(\.type) == [.string, .integer, .number])
  }

  @Test func aMissingColumnFailsTheNodeNamingIt() throws {
    var pipeline = try TablePipeline("filter", ["where": "mass > 1"])
    let outcome = try pipeline.run(try Table(penguins))
    #expect(outcome.failure == "no column 'mass' in the table (columns: species, body mass, bill)")
    #expect(outcome.table == nil)
  }

  @Test func aTypeErrorAgainstTheTableFailsTheNodeWithTheColumn() throws {
    var pipeline = try TablePipeline("filter", ["where": "species > 3"])
    #expect(
      try pipeline.run(try Table(penguins)).failure
        == "formula 'where', at character 9: cannot compare string with integer using '>'")
    var notBool = try TablePipeline("filter", ["where": "`body mass` + 1"])
    #expect(try notBool.run(try Table(penguins)).failure == "'where' gives integer values, not true/false")
  }

  @Test func theProgramFollowsTheSchemaFromPassToPass() throws {
    var pipeline = try TablePipeline("filter", ["where": "x > 1"])
    let integers = try Table([CellColumn("x", .integer, [.integer(1), .integer(2)])])
    let strings = try Table([CellColumn("x", .string, [.string("a"), .string("b")])])
    let numbers = try Table([CellColumn("y", .number, [.number(0)]), CellColumn("x", .number, [.number(1.5)])])
    #expect(try pipeline.run(integers).table?.cells("x") == [.integer(2)])
    #expect(
      try pipeline.run(strings).failure
        == "formula 'where', at character 3: cannot compare string with integer using '>'")
    #expect(try pipeline.run(numbers).table?.cells("x") == [.number(1.5)])
    #expect(try pipeline.run(integers).table?.cells("x") == [.integer(2)])
  }

  @Test(arguments: [
    ("species ==", "param 'where' at character 11: expected an operand after '=='"),
    ("a = 1", "param 'where' at character 3: unexpected '=' (write '==' to compare)"),
    ("1 + 2", "gives integer values, not true/false"),
    ("\"a\" < 1", "param 'where' at character 5: cannot compare string with integer using '<'")
  ])
  func aBadFormulaIsAValidationErrorNamingTheParam(formula: String, message: String) {
    var registry = NodeKindRegistry.standard
    registry.register(TableInputKind())
    let document = FlowDocument(nodes: [.node("f", "filter", params: ["where": .string(formula)])])
    #expect {
      _ = try GraphEvaluator(validating: document, registry: registry)
    } throws: { error in
      guard let issue = (error as? GraphValidationError)?.issues.first else { return false }
      return issue.code == .invalidParameter && issue.nodeIDs == ["f"] && issue.parameter == "where"
        && issue.message.contains(message)
    }
  }

  @Test(arguments: 0..<200)
  func keepsExactlyTheRowsTheReferenceSaysAreTrue(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
    let columns = RowFormulaPropertyTests.randomTable(&random)
    var generator = RowFormulaPropertyTests.Generator(random: random, columns: columns)
    let (text, expr, _) = generator.make(.bool, depth: 3)
    var expected: [Int]? = []
    do {
      for row in 0..<columns[0].cells.count
      where try RowFormulaPropertyTests.reference(expr, row: row, columns: columns) == .bool(true) {
        expected?.append(row)
      }
    } catch {
      expected = nil
    }
    var pipeline = try TablePipeline("filter", ["where": .string(text)])
    let outcome = try pipeline.run(try Table(columns))
    guard let expected else {
      #expect(outcome.failure?.contains("integer overflow") == true, "\(text)")
      return
    }
    let table = try #require(outcome.table, "\(text): \(outcome.failure ?? "")")
    for column in columns {
      let kept = expected.map { column.cells[$0] }
      let actual = table.cells(column.name)
      #expect(
        actual.count == kept.count && zip(actual, kept).allSatisfy { $0.matches($1) },
        "\(text): \(column.name) \(actual) expected \(kept)")
    }
  }
}

/// `filter` in a document with a file source: incrementality and compiling once per schema.
@Suite struct FilterNodeIncrementalTests {
  static let pipeline = FlowDocument(
    nodes: [
      .node("read", "readCSV", params: ["path": "data.csv"]),
      .node("filter", "filter", params: ["where": "mass > 4000"]),
      .node("count", "rowCount")
    ],
    edges: [.edge("e1", "read", "filter"), .edge("e2", "filter", "count")])

  @Test func editingWhereReRunsTheFilterAndItsDescendantsButNotTheRead() throws {
    var (folder, evaluator) = try FileNodeTests.setUp(Self.pipeline)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(evaluator.evaluate().ran == ["read", "filter", "count"])
    #expect(evaluator.value(of: "count", port: "count") == .integer(2))

    evaluator.replaceNode(.node("filter", "filter", params: ["where": "species == \"Adelie\""]))
    let report = evaluator.evaluate()
    #expect(report.ran == ["filter", "count"])
    #expect(evaluator.value(of: "count", port: "count") == .integer(2))  // the null mass row is Adelie

    // Same rows kept: the filter's output equals the previous one (cut off). (`count` still
    // runs: replacing a node reconnects its edges, which marks their targets.)
    evaluator.replaceNode(.node("filter", "filter", params: ["where": "species == \"Adelie\" or false"]))
    let cutOff = evaluator.evaluate()
    #expect(!cutOff.ran.contains("read"))
    #expect(cutOff.cutOff.contains("filter"))
  }

  @Test func compilesOncePerSchema() throws {
    guard
      case .success(let node) = NodeKindRegistry.standard.configure(
        NodeSpec(kind: "filter", params: ["where": "x > 1"])),
      let evaluator = node.instance.evaluator as? FilterNode.Evaluator
    else {
      Issue.record("filter did not configure")
      return
    }
    func run(_ columns: [CellColumn]) throws -> Int? {
      var outputs = NodeOutputs([.null])
      try evaluator.evaluate(NodeInputs([.table(try Table(columns))]), &outputs)
      return outputs[0].tableValue?.rowCount
    }
    let integers = [CellColumn("x", .integer, [.integer(1), .integer(2)])]
    #expect(try run(integers) == 1)
    #expect(try run([CellColumn("x", .integer, [.integer(5), .integer(6), .integer(0)])]) == 2)
    #expect(evaluator.cache.compilationCount == 1)
    #expect(try run([CellColumn("x", .number, [.number(1.5)])]) == 1)
    #expect(try run([CellColumn("w", .bool, [.bool(true)]), CellColumn("x", .integer, [.integer(3)])]) == 1)
    #expect(evaluator.cache.compilationCount == 3)
    #expect(try run(integers) == 1)
    #expect(evaluator.cache.compilationCount == 4)  // only the last schema is kept
  }
}
