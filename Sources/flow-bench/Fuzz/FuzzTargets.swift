import FlowCommandLine
import FlowGraph
import FlowNodes
import FlowRuntime

/// What the fuzz targets do with one input. A trap ends the process (and fails CI); a broken
/// property (a document that does not survive its own round trip) is reported by `check`.
enum FuzzTargets {
  /// How one input fared.
  enum Outcome { case accepted, rejected }

  /// The document decoder as `flow run` drives it: decode; on success write and re-read (writing
  /// the re-read document must give the same text), validate against the standard kinds, evaluate, and
  /// write the outputs as text and JSON.
  static func decoder(_ bytes: [UInt8]) -> Outcome {
    let document: FlowDocument
    do {
      document = try FlowDocument(jsonBytes: bytes)
    } catch {
      _ = error.description
      return .rejected
    }
    let written = document.jsonString()
    let reread = try? FlowDocument(jsonBytes: Array(written.utf8))
    Harness.check(reread != nil, "fuzz decoder: a decoded document does not re-read after writing:\n\(written)")
    // Writing sorts keys, so compare writings: writing what was read back changes nothing.
    Harness.check(reread?.jsonString() == written, "fuzz decoder: the round trip changed the document:\n\(written)")
    guard var evaluator = try? GraphEvaluator(validating: document, registry: registry) else { return .rejected }
    evaluator.evaluate()
    let result = RunResult(evaluator: evaluator, nodes: evaluator.presentNodeIDs)
    _ = result.text()
    _ = result.json()
    return .accepted
  }

  /// The standard kinds with no file access at all: a fuzzed `writeCSV` must not write into the
  /// working directory (file nodes fail with a policy error instead, which is exercised too).
  static let registry: NodeKindRegistry = {
    var registry = NodeKindRegistry.standard
    registry.environment = EvaluationEnvironment(
      documentFolder: "/nonexistent/flow-fuzz",
      fileAccess: FileAccessPolicy(readableRoots: [], writableRoots: []))
    return registry
  }()

  /// Values the formula target evaluates with: signed zeros, extremes, non-finite numbers.
  static let values: [Double] = [
    0, -0.0, 1, -1, 0.5, 2, 1e308, -1e308, .leastNonzeroMagnitude, .infinity, -.infinity, .nan, 9.3e18
  ]

  /// The formula parser and evaluator: parse; on success evaluate with several value vectors.
  /// The same text is also read as a row formula and run over a small table whose columns
  /// (those the formula names) take each type in turn, with nulls, empty and non-ASCII text.
  static func formula(_ bytes: [UInt8]) -> Outcome {
    let text = String(decoding: bytes, as: UTF8.self)
    let row = rowFormula(text)
    let formula: Formula
    do {
      formula = try Formula(parsing: text)
    } catch {
      _ = error.description
      return row
    }
    for offset in 0..<3 {
      let inputs = formula.variables.indices.map { values[($0 &+ offset) % values.count] }
      _ = try? formula.evaluate(inputs)
    }
    // The wrong number of values must be an error, not a trap.
    _ = try? formula.evaluate(formula.variables.isEmpty ? [1] : [])
    return .accepted
  }

  /// The row-formula half of ``formula(_:)``.
  private static func rowFormula(_ text: String) -> Outcome {
    guard let formula = try? RowFormula(parsing: text) else { return .rejected }
    for shift in 0..<4 {
      let columns = formula.columns.enumerated().map { index, name -> (String, Column) in
        switch (index + shift) % 4 {
        case 0: (name, .strings(["Zürich", "", nil, "a😀b", " N7 "]))
        case 1: (name, .integers([1, -2, nil, .max, 0]))
        case 2: (name, .numbers([2.675, -0.0, nil, .nan, 1e308]))
        default: (name, .bools([true, false, nil, true, false]))
        }
      }
      guard let table = try? Table(columns) else { return .accepted }
      _ = try? formula.probe(over: table)
    }
    return .accepted
  }
}
