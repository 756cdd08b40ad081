import FlowCommandLine
import FlowNodes
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// `flow run` streaming chains morsel by morsel (`StreamingPlan`) against `--no-streaming`:
/// random pipelines over random CSVs (nulls, quoted fields with commas, quotes and line
/// breaks, Unicode, a late bad date, columns that change type along the file) give the same
/// output bytes, the same written files and the same `--report` sets, with morsels of a few
/// hundred bytes so each file is many morsels.
@Suite struct StreamingRunTests {
  /// One run's printed outputs, its report's sets (durations dropped) and what it streamed.
  struct Outcome: Equatable {
    var status: Int32
    var outputs: String
    var ran: [String]
    var rest: [String]
    var streamed: [String]
    var written: [UInt8]?
    var diagnostics: [String]

    func with(streamed: [String]) -> Outcome {
      var copy = self
      copy.streamed = streamed
      return copy
    }
  }

  static func run(_ folder: URL, _ extra: [String]) async -> Outcome {
    let output = folder.appendingPathComponent("out.csv")
    try? FileManager.default.removeItem(at: output)
    let result = await FlowCommandLine.runInProcess(
      ["run", folder.appendingPathComponent("doc.flow.json").path, "--report"] + extra,
      registry: NodeKindRegistry.standard)
    let text = result.output
    let parts = text.components(separatedBy: "report:\n")
    let report = parts.count > 1 ? parts[parts.count - 1].split(separator: "\n").map(String.init) : []
    var ran: [String] = [], rest: [String] = [], streamed: [String] = []
    for line in report {
      if line.hasPrefix("  ran ") {
        // "  ran (3, in order): a 1.2 ms, b <0.001 ms": the ids without their times.
        let list = line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
        ran = list.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }.sorted()
      } else if line.hasPrefix("  streamed ") {
        streamed = (line.split(separator: ":", maxSplits: 1).last.map(String.init) ?? "").split(separator: ",")
          .map { $0.trimmingCharacters(in: .whitespaces) }
      } else if !line.hasPrefix("  pass:") {
        rest.append(line)
      }
    }
    let written = FileManager.default.contents(atPath: output.path).map { [UInt8]($0) }
    try? FileManager.default.removeItem(at: output)
    return Outcome(
      status: result.status, outputs: parts.count > 1 ? parts.dropLast().joined(separator: "report:\n") : text,
      ran: ran, rest: rest, streamed: streamed, written: written,
      diagnostics: result.diagnostics)
  }

  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-streaming-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func write(_ document: String, csv: String, to folder: URL) throws {
    try Data(document.utf8).write(to: folder.appendingPathComponent("doc.flow.json"))
    try Data(csv.utf8).write(to: folder.appendingPathComponent("data.csv"))
  }

  /// A document: `readCSV` of data.csv, then `stages` (kind, params JSON) in a line.
  static func document(_ stages: [(String, String)], readParams: String = "") -> String {
    var nodes = [#"{"id": "read", "data": {"kind": "readCSV", "params": {"path": "data.csv"\#(readParams)}}}"#]
    var edges: [String] = []
    var previous = "read"
    for (index, stage) in stages.enumerated() {
      let id = "n\(index)"
      nodes.append(#"{"id": "\#(id)", "data": {"kind": "\#(stage.0)", "params": \#(stage.1)}}"#)
      edges.append(#"{"id": "e\#(index)", "sourceNodeID": "\#(previous)", "targetNodeID": "\#(id)"}"#)
      previous = id
    }
    return
      #"{"flowRuntime": {"formatVersion": 1}, "nodes": [\#(nodes.joined(separator: ", "))], "edges": [\#(edges.joined(separator: ", "))]}"#
  }

  /// A random CSV: `k` small integers, `g` short words (Unicode, quoted, null tokens), `x`
  /// integers, `y` decimals, `s` text with commas, quotes and line breaks, `d` ISO dates
  /// (maybe one bad one late), `m` integers that may turn into decimals or words late.
  /// How a generated file is written: delimiter, line end, byte order mark, last line end.
  struct Format {
    var delimiter = ","
    var lineEnd = "\n"
    var byteOrderMark = false
    var finalLineEnd = true

    static func random(_ random: inout SeededRandom) -> Format {
      Format(
        delimiter: [",", ";", "\t"][Int.random(in: 0..<3, using: &random)],
        lineEnd: Bool.random(using: &random) ? "\n" : "\r\n",
        byteOrderMark: Int.random(in: 0..<4, using: &random) == 0,
        finalLineEnd: Int.random(in: 0..<4, using: &random) != 0)
    }

    /// The `readCSV` params beyond `path` (JSON members, each after a comma).
    var readParams: String { delimiter == "," ? "" : #", "delimiter": "\#(delimiter == "\t" ? "\\t" : delimiter)""# }
  }

  static func csv(_ random: inout SeededRandom, format: Format = Format()) -> String {
    let rows = Int.random(in: 1...600, using: &random)
    let words = ["a", "B", "ü", "日本", "\"x,y\"", "\"say \"\"hi\"\"\"", "NA", "", "é"]
    let texts = ["plain", "\"two\nlines\"", "\"comma, inside\"", "🙂", "", "null", "z"]
    let badDateRow = Bool.random(using: &random) ? Int.random(in: 0..<rows, using: &random) : -1
    let mChange = Int.random(in: 0..<4, using: &random)
    var text =
      (format.byteOrderMark ? "\u{FEFF}" : "")
      + ["k", "g", "x", "y", "s", "d", "m", "b"].joined(separator: format.delimiter)
      + format.lineEnd
    for row in 0..<rows {
      func maybeNull(_ cell: String) -> String { Int.random(in: 0..<8, using: &random) == 0 ? "" : cell }
      let k = maybeNull(String(Int.random(in: 0...4, using: &random)))
      let g = words[Int.random(in: 0..<words.count, using: &random)]
      let x = maybeNull(String(Int.random(in: -1000...1000, using: &random)))
      let y = maybeNull(String(format: "%.3f", Double.random(in: -100...100, using: &random)))
      let s = texts[Int.random(in: 0..<texts.count, using: &random)]
      let d =
        row == badDateRow
        ? "not a date"
        : maybeNull(
          String(
            format: "2024-%02d-%02d", Int.random(in: 1...12, using: &random),
            Int.random(in: 1...28, using: &random)))
      var m = String(Int.random(in: 0...9, using: &random))
      if row > rows * 3 / 4 && mChange == 1 { m += ".5" }
      if row > rows * 3 / 4 && mChange == 2 { m = "word" }
      // Near 2^62: a few of them overflow an integer sum.
      let b = maybeNull(
        String(Int64.random(in: (1 << 61)...(1 << 62), using: &random) * (Bool.random(using: &random) ? 1 : -1)))
      text +=
        [k, g, x, y, s, d, m, b].joined(separator: format.delimiter)
        + (row < rows - 1 || format.finalLineEnd ? format.lineEnd : "")
    }
    return text
  }

  static func filter(_ random: inout SeededRandom) -> (String, String) {
    let predicates = [
      "x > \(Int.random(in: -500...500, using: &random))", "isNull(y) or y < 10", #"g == \"ü\" or k >= 2"#,
      "not (x < 0) and k != 3", #"s == \"plain\" or isNull(x)"#, "m >= 3", "y * 2 > x"
    ]
    return ("filter", #"{"where": "\#(predicates[Int.random(in: 0..<predicates.count, using: &random)])"}"#)
  }

  static func derive(_ random: inout SeededRandom, _ number: Int) -> (String, String) {
    let formulas = [
      "x * 2 + k", "concat(g, s)", "y / 3 + x", "if(isNull(x), 0, x) - k", "year(d)", "m + 1", "y - x * 0.1"
    ]
    let count = Int.random(in: 1...2, using: &random)
    let members = (0..<count).map { index in
      let name = index == 0 && Bool.random(using: &random) ? "x" : "c\(number)_\(index)"
      return #""\#(name)": "\#(formulas[Int.random(in: 0..<formulas.count, using: &random)])""#
    }
    return ("derive", #"{"columns": {\#(members.joined(separator: ", "))}}"#)
  }

  static func select(_ random: inout SeededRandom) -> (String, String) {
    var columns = ["k", "g", "x", "y", "s", "d", "m", "b"].filter { _ in Int.random(in: 0..<5, using: &random) != 0 }
    if Bool.random(using: &random), let first = columns.first { columns[0] = "\(first) as \(first)" }
    return ("select", #"{"columns": [\#(columns.map { #""\#($0)""# }.joined(separator: ", "))]}"#)
  }

  static let aggregates = [
    "count()", "sum(x)", "sum(y)", "mean(y)", "mean(x)", "min(g)", "max(y)", "min(x)", "first(s)", "last(y)",
    "max(d)", "sum(m)", "sum(b)", "mean(b)", "max(b)"
  ]

  /// A random `groupBy` of 1 to 5 of `aggregates` by random keys.
  static func groupBy(
    _ random: inout SeededRandom, keyChoices: [[String]] = [["k"], ["g"], ["k", "g"], [], ["s", "k"]],
    aggregates: [String] = aggregates
  ) -> (String, String) {
    let keys = keyChoices[Int.random(in: 0..<keyChoices.count, using: &random)]
    let chosen = (0..<Int.random(in: 1...5, using: &random)).map { index in
      #""a\#(index)": "\#(aggregates[Int.random(in: 0..<aggregates.count, using: &random)])""#
    }
    return (
      "groupBy",
      #"{"by": [\#(keys.map { #""\#($0)""# }.joined(separator: ", "))], "aggregate": {\#(chosen.joined(separator: ", "))}}"#
    )
  }

  @Test func randomPipelinesStreamAsTheyRunMaterialized() async throws {
    var streamedCases = 0, failedCases = 0, writtenCases = 0
    let cases = 80
    for seed in 0..<UInt64(cases) {
      var random = SeededRandom(seed: seed &* 7919 &+ 3)
      let folder = try Self.folder()
      defer { try? FileManager.default.removeItem(at: folder) }
      var stages: [(String, String)] = []
      for number in 0..<Int.random(in: 0...4, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: stages.append(Self.filter(&random))
        case 1: stages.append(Self.derive(&random, number))
        default: stages.append(Self.select(&random))
        }
      }
      switch Int.random(in: 0..<3, using: &random) {
      case 0: stages.append(Self.groupBy(&random))
      case 1: stages.append(("writeCSV", #"{"path": "out.csv"}"#))
      default: break
      }
      if stages.last?.0 != "writeCSV" && Bool.random(using: &random) { stages.append(("rowCount", "{}")) }
      let format = Format.random(&random)
      try Self.write(
        Self.document(stages, readParams: format.readParams), csv: Self.csv(&random, format: format), to: folder)
      let morsel = String(Int.random(in: 64...1024, using: &random))
      // Sometimes a row limit that some node passes: the same node fails either way.
      let limit =
        Int.random(in: 0..<4, using: &random) == 0
        ? ["--max-rows", String(Int.random(in: 5...300, using: &random))] : []
      // Sometimes a printed node inside the pipeline (it ends a chain).
      let printed =
        !stages.isEmpty && Int.random(in: 0..<4, using: &random) == 0
        ? ["--node", "n\(Int.random(in: 0..<stages.count, using: &random))"] : []
      let streamed = await Self.run(folder, ["--morsel-bytes", morsel] + limit + printed)
      let materialized = await Self.run(folder, ["--no-streaming"] + limit + printed)
      #expect(materialized.streamed.isEmpty)
      var comparable = streamed
      comparable.streamed = []
      #expect(comparable == materialized, "seed \(seed): \(stages)")
      #expect(!streamed.ran.isEmpty, "seed \(seed): the report lists what ran: \(streamed.diagnostics)")
      if !streamed.streamed.isEmpty { streamedCases += 1 }
      if materialized.status != 0 { failedCases += 1 }
      if materialized.written != nil { writtenCases += 1 }
    }
    // The generator reaches every path: chains that stream, errors, written files.
    #expect(streamedCases >= cases / 4, "\(streamedCases) of \(cases) streamed")
    #expect(failedCases >= 3, "\(failedCases) failed")
    #expect(writtenCases >= 3, "\(writtenCases) wrote a file")
  }

  /// A fixed Q1-shaped chain: every node streams, and the report names them in order.
  @Test func aFilterDeriveGroupByChainStreamsAndReportsItsNodes() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "flag,qty,price\n"
    for row in 0..<2_000 { csv += "\(["A", "N", "R"][row % 3]),\(row % 50),\(Double(row) * 1.1)\n" }
    try Self.write(
      Self.document([
        ("filter", #"{"where": "qty < 40"}"#), ("derive", #"{"columns": {"total": "qty * price"}}"#),
        ("groupBy", #"{"by": ["flag"], "aggregate": {"n": "count()", "sum": "sum(total)", "avg": "mean(price)"}}"#),
        ("sort", #"{"by": ["flag"]}"#)
      ]), csv: csv, to: folder)
    let streamed = await Self.run(folder, ["--morsel-bytes", "256"])
    #expect(streamed.status == 0, "\(streamed)")
    #expect(streamed.streamed == ["read", "n0", "n1", "n2"])
    #expect(streamed.ran == ["n0", "n1", "n2", "n3", "read"])
    let whole = await Self.run(folder, ["--no-streaming"])
    #expect(whole.streamed.isEmpty)
    #expect(streamed.outputs == whole.outputs)
    #expect(streamed.outputs.contains("n3.table = table (3 rows × 4 columns)"))
  }

  /// A chain into `writeCSV` appends each morsel's rows to the temporary file: the file is the
  /// materialized one, byte for byte, and the writer is part of the chain.
  @Test func aChainIntoWriteCSVWritesTheSameBytes() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "g,x,s\n"
    let texts = ["plain", "\"two\nlines\"", "\"comma, inside\"", "🙂", "", "\"say \"\"hi\"\"\""]
    for row in 0..<500 {
      csv +=
        "\(["a", "ü", "日本"][row % 3]),\(row % 7 == 0 ? "" : String(row * 13 % 1000 - 500)),\(texts[row % texts.count])\n"
    }
    try Self.write(
      Self.document([
        ("filter", #"{"where": "isNull(x) or x > -300"}"#), ("derive", #"{"columns": {"t": "concat(g, s)"}}"#),
        ("writeCSV", #"{"path": "out.csv"}"#)
      ]), csv: csv, to: folder)
    let streamed = await Self.run(folder, ["--morsel-bytes", "200"])
    let whole = await Self.run(folder, ["--no-streaming"])
    #expect(streamed.status == 0, "\(streamed)")
    #expect(streamed.streamed == ["read", "n0", "n1", "n2"])
    let written = try #require(streamed.written)
    #expect(written == whole.written)
    #expect(written.starts(with: Array("g,x,s,t\n".utf8)))
    #expect(streamed.outputs == whole.outputs)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(
      leftovers == ["data.csv", "doc.flow.json"], "the run removes out.csv after reading it; no temporary file stays")
  }

  /// A `groupBy` of many small groups (past 65,536, fewer than 8 rows each) gives up streaming:
  /// the same table, from the kernel.
  @Test func manySmallGroupsRunMaterialized() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "id,v\n"
    for row in 0..<140_000 { csv += "\(row / 2),\(row % 5)\n" }
    try Self.write(
      Self.document([
        ("filter", #"{"where": "v >= 0"}"#),
        ("groupBy", #"{"by": ["id"], "aggregate": {"s": "sum(v)", "m": "max(v)"}}"#), ("rowCount", "{}")
      ]),
      csv: csv, to: folder)
    let streamed = await Self.run(folder, ["--morsel-bytes", "64K"])
    let whole = await Self.run(folder, ["--no-streaming"])
    #expect(streamed.streamed.isEmpty)
    #expect(streamed == whole)
    #expect(streamed.outputs.contains("n2.count = 70000"), "\(streamed.outputs)")
  }

  /// An integer sum that overflows in a late morsel is the kernel's compensated sum of the
  /// numbers, as materialized; one that does not stays an exact integer.
  @Test func integerSumsOverflowingLateAreTheKernelsError() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "g,b\n"
    for row in 0..<400 { csv += "\(row % 2),\(row < 390 ? "1" : "4611686018427387904")\n" }
    try Self.write(
      Self.document([
        ("filter", #"{"where": "b > 0"}"#),
        ("groupBy", #"{"by": ["g"], "aggregate": {"s": "sum(b)", "n": "count()"}}"#)
      ]), csv: csv, to: folder)
    let streamed = await Self.run(folder, ["--morsel-bytes", "100"])
    let whole = await Self.run(folder, ["--no-streaming"])
    #expect(streamed.status == 1)
    #expect(streamed == whole)
    #expect(
      streamed.outputs.contains(#"n1 ! s: sum(b) does not fit in a 64-bit integer in the group g = 0"#),
      "\(streamed.outputs)")
  }

  /// A late error (a text that is not a date, in the last rows) fails the node that fails
  /// materialized, with the same message; nothing streamed, and the writer wrote nothing.
  @Test func anErrorMidStreamIsTheMaterializedError() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "d,x\n"
    for row in 0..<1_000 {
      csv += "\(row == 990 ? "soon" : "2024-01-\(row % 28 + 1 < 10 ? "0" : "")\(row % 28 + 1)"),\(row)\n"
    }
    try Self.write(
      Self.document([
        ("filter", #"{"where": "x >= 0"}"#), ("derive", #"{"columns": {"y": "year(d)"}}"#),
        ("writeCSV", #"{"path": "out.csv"}"#)
      ]), csv: csv, to: folder)
    let streamed = await Self.run(folder, ["--morsel-bytes", "128"])
    let whole = await Self.run(folder, ["--no-streaming"])
    #expect(streamed.status == 1)
    #expect(streamed == whole)
    #expect(streamed.outputs.contains("n1 ! "), "\(streamed.outputs)")
    #expect(streamed.written == nil)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(leftovers == ["data.csv", "doc.flow.json"])
  }

  /// `--all` and `--no-streaming` print every table or ask for whole ones: nothing streams; a
  /// `--node` ends a chain.
  @Test func observedRunsDoNotStream() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.write(
      Self.document([("filter", #"{"where": "x > 1"}"#), ("groupBy", #"{"by": [], "aggregate": {"n": "count()"}}"#)]),
      csv: "x\n1\n2\n3\n", to: folder)
    #expect(await Self.run(folder, []).streamed == ["read", "n0", "n1"])
    // A printed node ends a chain (here the chain is read → n0, n0's table built whole).
    let printed = await Self.run(folder, ["--node", "n0"])
    #expect(printed.streamed == ["read", "n0"])
    #expect(printed == (await Self.run(folder, ["--node", "n0", "--no-streaming"])).with(streamed: ["read", "n0"]))
    #expect(printed.outputs.contains("n0.table = table (2 rows × 1 columns)"), "\(printed.outputs)")
    #expect(await Self.run(folder, ["--node", "read"]).streamed.isEmpty)
    #expect(await Self.run(folder, ["--all"]).streamed.isEmpty)
    #expect(await Self.run(folder, ["--no-streaming"]).streamed.isEmpty)
    let bad = await FlowCommandLine.runInProcess(
      ["run", folder.appendingPathComponent("doc.flow.json").path, "--morsel-bytes", "0"],
      registry: NodeKindRegistry.standard)
    #expect(bad.status == 64)
  }
}
