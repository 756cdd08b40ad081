import FlowGraph
import FlowTestSupport
import FlowRuntime
import Testing
@testable import FlowNodes

/// `derive` through the registry: key order, replacing in place, earlier entries, nulls, errors.
@Suite struct DeriveNodeTests {
  private let input: [CellColumn] = [
    CellColumn("a", .integer, [.integer(1), .integer(2), .null]),
    CellColumn("b", .number, [.number(0.5), .number(4), .number(2)]),
    CellColumn("name", .string, [.string("x"), .null, .string("z")])
  ]

  /// A `columns` param with members in this order.
  private func columns(_ members: [(String, String)]) -> JSONObject {
    ["columns": .object(JSONObject(members.map { JSONMember(key: $0.0, value: .string($0.1)) }))]
  }

  @Test func addsColumnsInTheOrderTheDocumentWritesThem() throws {
    var pipeline = try TablePipeline("derive", columns([("z", "a * 10"), ("m", "b / 2"), ("k", "isNull(name)")]))
    let outcome = try pipeline.run(try Table(input))
    #expect(outcome.failure == nil)
    let table = try #require(outcome.table)
    #expect(table.columnNames == ["a", "b", "name", "z", "m", "k"])
    #expect(table.cells("z") == [.integer(10), .integer(20), .null])
    #expect(table.cells("m") == [.number(0.25), .number(2), .number(1)])
    #expect(table.cells("k") == [.bool(false), .bool(true), .bool(false)])
    #expect(table.column(named: "z")?.type == .integer)
  }

  @Test func replacesAnExistingColumnInPlace() throws {
    var pipeline = try TablePipeline("derive", columns([("a", "if(isNull(a), 0, a) + b")]))
    let table = try #require(try pipeline.run(try Table(input)).table)
    #expect(table.columnNames == ["a", "b", "name"])
    #expect(table.cells("a") == [.number(1.5), .number(6), .number(2)])
    #expect(table.column(named: "a")?.type == .number)
  }

  @Test func aFormulaMayUseAColumnAnEarlierEntryAdded() throws {
    var pipeline = try TablePipeline(
      "derive",
      columns([
        ("double", "b * 2"), ("quad", "double * 2"),
        ("b", "quad - double"), ("check", "b == double")
      ]))
    let table = try #require(try pipeline.run(try Table(input)).table)
    #expect(table.columnNames == ["a", "b", "name", "double", "quad", "check"])
    #expect(table.cells("quad") == [.number(2), .number(16), .number(8)])
    #expect(table.cells("check") == [.bool(true), .bool(true), .bool(true)])
  }

  @Test func nullFormulasAndStringsMakeTypedColumns() throws {
    var pipeline = try TablePipeline("derive", columns([("nothing", "null"), ("label", "if(a > 1, \"big\", name)")]))
    let table = try #require(try pipeline.run(try Table(input)).table)
    #expect(table.cells("nothing") == [.null, .null, .null])
    #expect(table.column(named: "nothing")?.type == .integer)
    #expect(table.cells("label") == [.string("x"), .string("big"), .string("z")])
  }

  @Test func anEmptyTableGetsEmptyTypedColumns() throws {
    var pipeline = try TablePipeline("derive", columns([("r", "b / 2"), ("s", "name")]))
    let table = try #require(try pipeline.run(try Table(input.map { CellColumn($0.name, $0.type, []) })).table)
    #expect(table.rowCount == 0)
    #expect(table.columnNames == ["a", "b", "name", "r", "s"])
    #expect(table.column(named: "r")?.type == .number)
    #expect(table.column(named: "s")?.type == .string)
  }

  @Test func aMissingColumnFailsNamingTheEntryAndTheColumn() throws {
    var pipeline = try TablePipeline("derive", columns([("r", "a + 1"), ("s", "mass * 2")]))
    let outcome = try pipeline.run(try Table(input))
    #expect(outcome.failure == "formula for column 's': no column 'mass' in the table (columns: a, b, name, r)")
  }

  @Test func anIntegerOverflowFailsTheNode() throws {
    var pipeline = try TablePipeline("derive", columns([("big", "a * 4000000000000000 * 4000")]))
    let outcome = try pipeline.run(try Table(input))
    #expect(outcome.failure == "formula for column 'big', at character 22: integer overflow in '*' at row 1")
  }

  @Test func anIntegerOverflowNamesTheNodeTheColumnAndTheRow() throws {
    // Rows 1 and 2 fit; row 3 overflows (the null row 4 cannot); negation has a row of its own.
    let counts = CellColumn("n", .integer, [.integer(1), .integer(-5), .integer(Int64.max), .null, .integer(Int64.max)])
    let minimum = CellColumn("m", .integer, [.integer(0), .null, .integer(3), .integer(Int64.min), .integer(1)])
    for (formula, expected) in [
      ("n + 1", "at character 3: integer overflow in '+' at row 3"),
      ("1 + n * 2", "at character 7: integer overflow in '*' at row 3"),
      ("0 - m", "at character 3: integer overflow in '-' at row 4"),
      ("-m", "at character 1: integer overflow in '-' at row 4")
    ] {
      var pipeline = try TablePipeline("derive", columns([("ok", "n * 0"), ("big", formula)]))
      let outcome = try pipeline.run(try Table([counts, minimum]))
      #expect(outcome.failure == "formula for column 'big', \(expected)", "\(formula)")
      #expect(outcome.ran == ["node", "source"], "the failing node is the derive node")
      #expect(outcome.table == nil)
    }
  }

  @Test(arguments: [
    (
      #"{"ok": "a + 1", "bmi": "mass / (h"}"#,
      "formula for column 'bmi', at character 10: expected ')' to close '(' opened at column 8"
    ),
    (#"{"bmi": 3}"#, "column 'bmi': expected a formula string, got number"),
    (#"{"t": "\"a\" + 1"}"#, "formula for column 't', at character 5: '+' needs numbers, got string and integer")
  ])
  func aBadEntryIsAValidationErrorNamingTheParamAndTheColumn(json: String, message: String) throws {
    let members = try #require(try JSONValue.parse(Array(json.utf8)).objectValue)
    let document = FlowDocument(nodes: [.node("d", "derive", params: ["columns": .object(members)])])
    #expect {
      _ = try GraphEvaluator(validating: document, registry: .standard)
    } throws: { error in
      guard let issue = (error as? GraphValidationError)?.issues.first else { return false }
      return issue.code == .invalidParameter && issue.nodeIDs == ["d"] && issue.parameter == "columns"
        && issue.message.contains(message)
    }
  }
}

/// `derive` against the per-row reference of ``RowFormulaPropertyTests`` over random tables.
@Suite struct DeriveNodePropertyTests {
  @Test(arguments: 0..<200)
  func derivedColumnsMatchTheReference(seed: Int) throws {
    var random = SeededRandom(seed: UInt64(seed) &* 15_485_863 &+ 11)
    let columns = RowFormulaPropertyTests.randomTable(&random)
    var generator = RowFormulaPropertyTests.Generator(random: random, columns: columns)
    let kind: RowFormulaPropertyTests.Kind = [.numeric, .bool, .string][seed % 3]
    let (text, expr, type) = generator.make(kind, depth: 3)
    // Replace `i` in place, or add a column at the end.
    let target = seed % 2 == 0 ? "i" : "new"
    var expected: [Cell]? = []
    do {
      for row in 0..<columns[0].cells.count {
        expected?.append(try RowFormulaPropertyTests.reference(expr, row: row, columns: columns))
      }
    } catch {
      expected = nil
    }
    var pipeline = try TablePipeline(
      "derive", ["columns": .object(JSONObject([JSONMember(key: target, value: .string(text))]))])
    let outcome = try pipeline.run(try Table(columns))
    guard let expected else {
      #expect(outcome.failure?.contains("integer overflow") == true, "\(text)")
      return
    }
    let table = try #require(outcome.table, "\(text): \(outcome.failure ?? "")")
    let names = columns.map(\.name)
    #expect(table.columnNames == (target == "i" ? names : names + ["new"]))
    #expect(table.column(named: target)?.type == ColumnType(rowType: type), "\(text)")
    let actual = table.cells(target)
    #expect(
      actual.count == expected.count && zip(actual, expected).allSatisfy { $0.matches($1) },
      "\(text): \(actual) expected \(expected)")
  }
}

extension ColumnType {
  /// The column type `derive` makes for a formula of static type `type` (null → integer).
  init(rowType: RowType) {
    switch rowType {
    case .number: self = .number
    case .bool: self = .bool
    case .string: self = .string
    default: self = .integer
    }
  }
}
