import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// RFC 4180 and the SPEC's CSV rules, case by case.
@Suite struct CSVReaderTests {
  static func read(_ text: String, _ configure: (inout CSVReader) -> Void = { _ in }) throws -> Table {
    var reader = CSVReader()
    configure(&reader)
    return try reader.read(Array(text.utf8))
  }

  static func rows(_ text: String) throws -> [[Value]] { KindHarness.rows(try read(text)) }

  @Test func quotedFieldsEscapesAndNewlinesInsideQuotes() throws {
    let table = try Self.read(
      "\"id\",\"text\"\r\n1,\"Hello, world\"\r\n2,\"She said \"\"hi\"\"\"\r\n3,\"line one\nline two\"")
    #expect(table.columnNames == ["id", "text"])
    #expect(
      KindHarness.rows(table) == [
        [.integer(1), .string("Hello, world")], [.integer(2), .string("She said \"hi\"")],
        [.integer(3), .string("line one\nline two")]
      ])
  }

  @Test func byteOrderMarkIsNotPartOfTheFirstName() throws {
    let table = try Self.read("\u{FEFF}a,b\n1,2\n")
    #expect(table.columnNames == ["a", "b"])
  }

  @Test func crlfAndLfBothEndRowsAndBlankLinesAreSkipped() throws {
    #expect(try Self.rows("a\r\n1\n\n2\r\n\r\n") == [[.integer(1)], [.integer(2)]])
  }

  @Test func emptyUnquotedCellsAreNullAndQuotedEmptyIsTheEmptyString() throws {
    let table = try Self.read("a,b,c\n1,,\"\"\n,x,y\n")
    #expect(KindHarness.rows(table) == [[.integer(1), .null, .string("")], [.null, .string("x"), .string("y")]])
  }

  @Test func nullTokensMatchUnquotedCellsOnly() throws {
    let table = try Self.read("a,b\nNA,\"NA\"\nN/A,null\n3,NaN\n")
    #expect(KindHarness.rows(table) == [[.null, .string("NA")], [.null, .null], [.integer(3), .null]])
    let custom = try Self.read("a\n-\n1\n") { $0.nullTokens = [Array("-".utf8)] }
    #expect(KindHarness.rows(custom) == [[.null], [.integer(1)]])
  }

  @Test func typesAreInferredIntegerThenNumberThenBoolThenString() throws {
    let table = try Self.read("i,n,b,s,t\n1,1,true,x,1.50\n 2 ,2.5,false,3,2\n")
    #expect(table.columns.map(\.type) == [.integer, .number, .bool, .string, .number])
    #expect(table.row(1)[0] == .integer(2))
    #expect(table.row(1)[1] == .number(2.5))
  }

  @Test func aColumnThatTurnsToTextKeepsTheOriginalTextOfEarlierCells() throws {
    let table = try Self.read("v,w\n1.50,true\n007,false\nabc,maybe\n,x\n")
    #expect(table.column(named: "v")?.values == [.string("1.50"), .string("007"), .string("abc"), .null])
    #expect(table.column(named: "w")?.values == [.string("true"), .string("false"), .string("maybe"), .string("x")])
  }

  @Test func numbersAreParsedExactly() throws {
    let cells = [
      "0.1", "-2", "1e-5", "3.5E+2", "12345678901234567890", "-9223372036854775808", "0.30000000000000004",
      "1.7976931348623157e308", "+4", "5."
    ]
    let table = try Self.read("x\n" + cells.joined(separator: "\n"))
    #expect(table.column(named: "x")?.type == .number)
    #expect(table.column(named: "x")?.values == cells.map { .number(Double($0)!) })
    for bad in ["1e", "--1", "0x10", "inf", "nan", "1 2", ".", "e5", "1e400", "-1e999"] {
      #expect(UnsafeDecimalParser.parse(bad) == nil, "\(bad)")
    }
    #expect(UnsafeDecimalParser.parse("  -42 ") == .integer(-42))
  }

  @Test func raggedRowFailsNamingItsPhysicalLine() throws {
    #expect(throws: CSVError(line: 3, "1 field, expected 2 (ragged row)")) { try Self.read("a,b\n1,2\n3\n") }
    // A quoted line break moves the following lines down.
    #expect(throws: CSVError(line: 4, "3 fields, expected 2 (ragged row)")) {
      try Self.read("a,b\n1,\"x\ny\"\n1,2,3\n")
    }
  }

  @Test func badQuotingFailsNamingItsLine() {
    #expect(throws: CSVError(line: 2, "a quoted field is not closed")) { try Self.read("a\n\"open\n") }
    #expect(throws: CSVError(line: 2, "unexpected text after a closing quote (field 1)")) {
      try Self.read("a\n\"x\"y\n")
    }
  }

  @Test func withoutHeaderColumnsAreNumbered() throws {
    let table = try Self.read("1;x\n2;y\n") {
      $0.header = false
      $0.delimiter = UInt8(ascii: ";")
    }
    #expect(table.columnNames == ["column1", "column2"])
    #expect(table.rowCount == 2)
  }

  @Test func emptyFilesAndHeaderOnly() throws {
    #expect(try Self.read("").columnCount == 0)
    let header = try Self.read("a,b\n")
    #expect(header.columnNames == ["a", "b"])
    #expect(header.rowCount == 0)
  }

  @Test func trailingDelimiterIsAnEmptyLastField() throws {
    #expect(try Self.rows("a,b\n1,") == [[.integer(1), .null]])
  }

  @Test func duplicateHeaderNamesFail() {
    #expect(throws: TableError.self) { try Self.read("a,a\n1,2\n") }
  }

  @Test func wideRecordsAndRowsBeyondTheLineBreakCountParse() throws {
    // 150 columns: the record buffer grows past its first capacity (64 fields).
    let header = (0..<150).map { "c\($0)" }.joined(separator: ",")
    let row = (0..<150).map { "\($0)" }.joined(separator: ",")
    let wide = try Self.read(header + "\n" + row + "\n" + row)
    #expect(wide.rowCount == 2 && wide.columnNames.count == 150)
    #expect(KindHarness.rows(wide)[1][149] == .integer(149))
    // A ragged wide row still names its line.
    #expect(throws: CSVError.self) { try Self.read(header + "\n" + row + ",1\n") }
    // Quoted line breaks and blank lines: fewer records than line breaks; none: one record.
    #expect(
      try Self.rows("s,n\n\"a\nb\nc\",1\n\n\n\"d\",2") == [
        [.string("a\nb\nc"), .integer(1)], [.string("d"), .integer(2)]
      ])
    #expect(try Self.rows("s,t\nx,yy") == [[.string("x"), .string("yy")]])
    // String cells much longer than the first one (the byte reservation is an estimate).
    let long = String(repeating: "z", count: 5000)
    #expect(try Self.rows("s\na\n\(long)\n\(long)\n") == [[.string("a")], [.string(long)], [.string(long)]])
  }

  @Test func lineBreakCountMatchesAByteLoop() {
    var state: UInt64 = 5
    for length in 0..<200 {
      let bytes = (0..<length).map { _ -> UInt8 in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return [0x0A, 0x0B, 0x09, 0x8A, 0xFF, 0x00, 0x41][Int(state >> 61) % 7]
      }
      let start = length / 3
      let expected = bytes[start...].filter { $0 == 0x0A }.count
      #expect(
        bytes.withUnsafeBufferPointer { UnsafeCSVScanner.lineBreaks(in: $0, from: start) } == expected,
        "length \(length)")
    }
  }
}
