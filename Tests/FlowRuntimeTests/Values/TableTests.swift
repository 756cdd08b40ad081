import FlowGraph
import FlowTestSupport
import Testing
@testable import FlowRuntime

@Suite struct TableTests {
  static func sample() throws -> Table {
    try Table([
      ("id", .integers([1, 2, nil])), ("name", .strings(["a", nil, "Zürich"])),
      ("x", .numbers([1.5, nil, -2])), ("ok", .bools([true, false, nil]))
    ])
  }

  @Test func cellsAndNulls() throws {
    let table = try Self.sample()
    #expect(table.rowCount == 3)
    #expect(table.columnNames == ["id", "name", "x", "ok"])
    #expect(table.row(0) == [.integer(1), .string("a"), .number(1.5), .bool(true)])
    #expect(table.row(1) == [.integer(2), .null, .null, .bool(false)])
    #expect(table.cell(row: 2, column: 0) == .null)
    #expect(table.column(named: "name")?.nullCount == 1)
    #expect(table.column(named: "missing") == nil)
  }

  @Test func rejectsRaggedAndDuplicateColumns() {
    #expect(throws: TableError.self) { try Table([("a", .integers([1])), ("b", .integers([1, 2]))]) }
    #expect(throws: TableError.self) { try Table([("a", .integers([1])), ("a", .integers([2]))]) }
  }

  @Test func copiesShareStorageAndCompareInConstantTime() throws {
    let table = try Self.sample()
    let copy = table
    #expect(copy.sharesStorage(with: table))
    #expect(Value.table(copy).isIdentical(to: .table(table)))
    let rebuilt = try Self.sample()
    #expect(!rebuilt.sharesStorage(with: table))
    #expect(rebuilt == table)
    #expect(try Table([("id", .integers([1, 2, 3]))]) != Table([("id", .integers([1, 2, 4]))]))
  }

  @Test func nanCellsCountAsUnchanged() throws {
    let a = try Table([("x", .numbers([.nan]))])
    let b = try Table([("x", .numbers([.nan]))])
    #expect(Value.table(a).isIdentical(to: .table(b)))
  }

  @Test func gatherSelectsRowsAndMinusOneGivesNulls() throws {
    let table = try Self.sample()
    let gathered = table.gathering([2, 0, -1], workers: 1)
    #expect(gathered.row(0) == [.null, .string("Zürich"), .number(-2), .null])
    #expect(gathered.row(1) == table.row(0))
    #expect(gathered.row(2) == [.null, .null, .null, .null])
  }

  @Test func concatenationMixesIntegersIntoNumbers() throws {
    let a = try Table([("v", .integers([1, nil]))])
    let b = try Table([("v", .numbers([2.5]))])
    let joined = try Table.concatenating([a, b])
    #expect(joined.column(named: "v")?.type == .number)
    #expect(joined.column(named: "v")?.values == [.number(1), .null, .number(2.5)])
    #expect(throws: TableError.self) { try Table.concatenating([a, Table([("w", .integers([1]))])]) }
  }

  @Test func settingAColumnReplacesInPlaceOrAppends() throws {
    let table = try Self.sample()
    let replaced = try table.settingColumn("name", to: .integers([7, 8, 9]))
    #expect(replaced.columnNames == ["id", "name", "x", "ok"])
    #expect(replaced.column(named: "name")?.type == .integer)
    let added = try table.settingColumn("new", to: .bools([nil, nil, true]))
    #expect(added.columnNames.last == "new")
    #expect(throws: TableError.self) { try table.settingColumn("bad", to: .integers([1])) }
  }

  @Test func builderChecksTypes() throws {
    var builder = TableBuilder([("n", .number), ("s", .string)])
    try builder.append(row: [.integer(2), .string("x")])
    try builder.append(row: [.null, .null])
    #expect(throws: TableError.self) { try builder.append(row: [.string("no"), .null]) }
    let table = try builder.build()
    #expect(table.row(0) == [.number(2), .string("x")])
    #expect(table.row(1) == [.null, .null])
  }

  @Test func jsonIsRowObjectsInColumnOrder() throws {
    let json = Value.table(try Self.sample()).jsonValue.serialized(options: [])
    #expect(
      json
        == #"[{"id":1,"name":"a","x":1.5,"ok":true},{"id":2,"name":null,"x":null,"ok":false},{"id":null,"name":"Zürich","x":-2,"ok":null}]"#
    )
  }

  @Test func jsonRowsBecomeATable() throws {
    let json = try JSONValue.parse(#"[{"b": 1, "a": "x"}, {"a": null, "c": 2.5, "b": 3}]"#)
    let table = try #require(Table(jsonRows: json.arrayValue ?? []))
    #expect(table.columnNames == ["b", "a", "c"])
    #expect(table.column(named: "b")?.type == .integer)
    #expect(table.column(named: "c")?.values == [.null, .number(2.5)])
    #expect(Table(jsonRows: [.object(["a": 1]), .object(["a": "x"])]) == nil)
    #expect(Table(jsonRows: [.number(1)]) == nil)
  }

  @Test func textIsAnAlignedGridOfAtMostTwentyRows() throws {
    let table = try Self.sample()
    #expect(
      table.text() == """
          id  name       x  ok
           1  a        1.5  true
           2  null    null  false
        null  Zürich    -2  null
        """)
    let long = try Table([("n", .integers((0..<25).map { Int64($0) }))])
    let lines = long.text().split(separator: "\n")
    #expect(lines.count == 22)
    #expect(lines.last == "… 5 more rows")
  }

  @Test(arguments: 0..<50)
  func validityMatchesFlags(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let flags = (0..<Int.random(in: 0..<200, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) != 0 }
    let validity = Validity(flags)
    #expect((0..<flags.count).map(validity.isValid) == flags)
    #expect(validity.nullCount == flags.filter { !$0 }.count)
    var joined = validity
    joined.append(contentsOf: Validity(flags.reversed()))
    #expect((0..<joined.count).map(joined.isValid) == flags + flags.reversed())
  }

  @Test func nullFitsAnyPortAndJSONNullConverts() {
    #expect(Value.null.conforms(to: .number))
    #expect(Value(json: .null, as: .any) == .null)
    #expect(Value(json: .null, as: .number) == nil)
    // A JSON integer stays an integer inside a list (Reference.md, "Documents"; it read as `.number(1)` before).
    #expect(Value(json: [1, nil], as: .list) == .list([.integer(1), .null]))
    #expect(Value.string("a b").text == "a b")
    #expect(Value.null.description == "null")
  }
}
