import Foundation
import FlowGraph
import Testing
@testable import FlowNodes
@testable import FlowRuntime

/// Integers read from files and written back stay digit for digit (Reference.md, "Documents"): 2^53 + 1,
/// Int64.max and Int64.min are integers; Int64.max + 1 is a `Double`.
@Suite struct ExactIntegerFileTests {
  static let csv = "id,n\n1,9007199254740993\n2,9223372036854775807\n3,-9223372036854775808\n"
  static let json =
    #"[{"id":1,"n":9007199254740993},{"id":2,"n":9223372036854775807},{"id":3,"n":-9223372036854775808}]"#
  static let exact: [Value] = [.integer(9_007_199_254_740_993), .integer(.max), .integer(.min)]

  static func withFolder(_ body: (String, EvaluationEnvironment) throws -> Void) throws {
    let folder = try KindHarness.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder, EvaluationEnvironment(documentFolder: folder))
  }

  static func write(_ text: String, _ path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  @Test func readCSVThenWriteCSVKeepsEveryDigit() throws {
    try Self.withFolder { folder, environment in
      try Self.write(Self.csv, folder + "/in.csv")
      let table = try KindHarness.run("readCSV", ["path": "in.csv"], environment: environment)[0]
      #expect(table.tableValue?.column(named: "n")?.values == Self.exact)
      _ = try KindHarness.run("writeCSV", ["path": "out.csv"], [table], environment: environment)
      #expect(try String(contentsOfFile: folder + "/out.csv", encoding: .utf8) == Self.csv)
    }
  }

  @Test func readCSVThenWriteJSONKeepsEveryDigit() throws {
    try Self.withFolder { folder, environment in
      try Self.write(Self.csv, folder + "/in.csv")
      let table = try KindHarness.run("readCSV", ["path": "in.csv"], environment: environment)[0]
      _ = try KindHarness.run("writeJSON", ["path": "out.json", "pretty": false], [table], environment: environment)
      #expect(try String(contentsOfFile: folder + "/out.json", encoding: .utf8) == Self.json + "\n")
    }
  }

  @Test func readJSONThenWriteJSONKeepsEveryDigit() throws {
    try Self.withFolder { folder, environment in
      try Self.write(Self.json, folder + "/rows.json")
      let table = try KindHarness.run("readJSON", ["path": "rows.json"], environment: environment)[0]
      #expect(table.tableValue?.column(named: "n")?.values == Self.exact)
      _ = try KindHarness.run(
        "writeJSON", ["path": "rows-out.json", "pretty": false], [table], environment: environment)
      #expect(try String(contentsOfFile: folder + "/rows-out.json", encoding: .utf8) == Self.json + "\n")

      let plain = #"{"list":[9007199254740993,9223372036854775807,-9223372036854775808],"over":9.223372036854776e+18}"#
      try Self.write(
        #"{"list": [9007199254740993, 9223372036854775807, -9223372036854775808], "over": 9223372036854775808}"#,
        folder + "/plain.json")
      let value = try KindHarness.run("readJSON", ["path": "plain.json"], environment: environment)[0]
      #expect(value == .record(["list": .list(Self.exact), "over": .number(9_223_372_036_854_775_808)]))
      _ = try KindHarness.run(
        "writeJSON", ["path": "plain-out.json", "pretty": false], [value], environment: environment)
      #expect(try String(contentsOfFile: folder + "/plain-out.json", encoding: .utf8) == plain + "\n")
    }
  }

  @Test func aCSVColumnBeyondInt64IsANumberColumn() throws {
    try Self.withFolder { folder, environment in
      try Self.write("n\n9223372036854775807\n9223372036854775808\n", folder + "/in.csv")
      let table = try KindHarness.run("readCSV", ["path": "in.csv"], environment: environment)[0]
      #expect(
        table.tableValue?.column(named: "n")?.values == [
          .number(9_223_372_036_854_775_808), .number(9_223_372_036_854_775_808)
        ], "Int64.max widens to the Double 2^63 in a number column")
    }
  }

  @Test func integerColumnsPrintExactlyAsText() throws {
    let table = try Table([("n", .integers([9_007_199_254_740_993, .max, .min]))])
    let text = table.text()
    for n in ["9007199254740993", "9223372036854775807", "-9223372036854775808"] {
      #expect(text.contains(n), "\(text)")
    }
  }
}
