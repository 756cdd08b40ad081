import Foundation
import FlowTestSupport
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Writing a table as CSV and reading it back gives the same cells.
@Suite struct CSVRoundTripTests {
  static let alphabet: [String] = ["a", "b", " ", ",", "\"", "\n", "\r\n", "é", "東", "NA", "x y", "1", "true", ";"]

  static func randomString(_ random: inout SeededRandom) -> String {
    (0..<Int.random(in: 0..<6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
  }

  static func randomTable(_ random: inout SeededRandom) throws -> Table {
    let rows = Int.random(in: 0..<30, using: &random)
    func maybe<T>(_ make: () -> T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : make() }
    var integers: [Int64?] = [], numbers: [Double?] = [], bools: [Bool?] = [], strings: [String?] = []
    for _ in 0..<rows {
      integers.append(maybe { Int64.random(in: -1_000_000...1_000_000, using: &random) })
      numbers.append(
        maybe {
          Double.random(in: -1e6...1e6, using: &random) * pow(10, Double(Int.random(in: -8...8, using: &random)))
        })
      bools.append(maybe { Bool.random(using: &random) })
      // "x" keeps the column text even when every other cell looks like a number.
      strings.append(maybe { "x" + randomString(&random) })
    }
    return try Table([
      ("int", .integers(integers)), ("num", .numbers(numbers)), ("flag", .bools(bools)),
      ("text", .strings(strings)), ("text, \"quoted\"", .strings(strings.map { $0.map { String($0.dropFirst()) } }))
    ])
  }

  /// Cells equal, with integers and numbers equal when their values are (a number column of
  /// whole numbers reads back as integers), and a column of nulls only of any type.
  static func sameCells(_ a: Table, _ b: Table) -> Bool {
    guard a.columnNames == b.columnNames, a.rowCount == b.rowCount else { return false }
    for row in 0..<a.rowCount {
      for (x, y) in zip(a.row(row), b.row(row)) where x != y {
        if let p = x.numberValue, let q = y.numberValue, p == q { continue }
        // A text column whose every non-null cell looks like something else is read as that.
        if case .string(let text) = x, y.description == text || y.text == text { continue }
        return false
      }
    }
    return true
  }

  @Test(arguments: 0..<200)
  func writeThenReadGivesTheSameCells(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let table = try Self.randomTable(&random)
    let delimiter = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].randomElement(using: &random)!
    let bytes = try CSVWriter(delimiter: delimiter).bytes(of: table)
    var reader = CSVReader()
    reader.delimiter = delimiter
    let back = try reader.read(bytes)
    #expect(Self.sameCells(table, back), "seed \(seed):\n\(String(decoding: bytes, as: UTF8.self))")
    // The text columns stay text: their first character is never a digit.
    if table.rowCount > 0 && table.column(named: "text")!.nullCount < table.rowCount {
      #expect(back.column(named: "text")?.type == .string)
    }
  }

  @Test func writerQuotesOnlyWhereNeeded() throws {
    let table = try Table([
      ("name", .strings(["plain", "", nil, "a,b", "say \"hi\"", "NA", "two\nlines"])),
      ("n", .numbers([1, 2.5, nil, 1e-7, -0.5, 3, 0.1 + 0.2]))
    ])
    let text = String(decoding: try CSVWriter().bytes(of: table), as: UTF8.self)
    #expect(
      text == #"""
        name,n
        plain,1
        "",2.5
        ,
        "a,b",1e-07
        "say ""hi""",-0.5
        "NA",3
        "two
        lines",0.30000000000000004

        """#)
  }
}
