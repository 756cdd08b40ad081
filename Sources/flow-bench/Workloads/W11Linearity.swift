import FlowCommandLine
import Foundation
import FlowGraph
import FlowNodes
import FlowRuntime

/// W11: everything the decoder, validator, registry and writers do is linear (or n log n) in the
/// size of the input. Each case runs at *n* and at 10 *n* and fails the run (exit 2) when the
/// time grows more than `bound`× — linear work grows about 10×, n log n about 11–12×, a linear
/// search per element 100×. Sizes, not absolute times, are judged, so a slow machine passes.
///
/// The cases are the quadratic corners found in issue 6 and their relatives: repeated and
/// unknown top-level keys, params set against formula variables, edges into a node with many
/// ports, declared handles against many ports, unknown params listing the known ones, a flood
/// of problems, and `--format json` output of many sinks; and those of issue 16 (Reference.md,
/// "Files and limits"), bound to 20×: `derive` columns, `format` placeholders, `groupBy` aggregates and
/// `join` output rows (`W11Linearity+Limits.swift`).
enum W11Linearity {
  /// The largest growth accepted for a 10× larger input. Linear work measures 8–27× here:
  /// hash tables and arrays that fit the caches at *n* no longer do at 10 *n*.
  static let bound = 40.0

  struct Case {
    var name: String
    /// The size at the small end (the large end is 10×).
    var size: Int
    /// The largest growth accepted for this case (default `W11Linearity.bound`).
    var bound = W11Linearity.bound
    /// Builds the input for `n` outside the timing and returns the timed work.
    var prepare: (Int) -> () -> Void
  }

  static func run() async throws {
    let cases =
      [
        Case(name: "decode: top-level keys (half repeated)", size: 20_000) { n in
          let bytes = topLevelKeys(n)
          return { Harness.check((try? FlowDocument(jsonBytes: bytes))?.extra.count == n / 2, "W11 top-level keys") }
        },
        Case(name: "configure: params setting formula variables", size: benchSettings.quick ? 4_000 : 6_000) { n in
          let document = formulaDocument(variables: n, params: (0..<n).map { "v\($0)" }, handles: false)
          return {
            Harness.check((try? GraphEvaluator(validating: document, registry: .standard)) != nil, "W11 params")
          }
        },
        Case(name: "configure: unknown params on a formula node", size: benchSettings.quick ? 4_000 : 6_000) { n in
          let document = formulaDocument(variables: n, params: (0..<n).map { "z\($0)" }, handles: false)
          return { Harness.check(validationProblems(document) == n, "W11 unknown params") }
        },
        Case(name: "validate: declared handles of a formula node", size: benchSettings.quick ? 4_000 : 6_000) { n in
          let document = formulaDocument(variables: n, params: [], handles: true)
          return { Harness.check(validationProblems(document) == 0, "W11 handles") }
        },
        Case(name: "validate: edges into a formula node's variables", size: benchSettings.quick ? 4_000 : 6_000) { n in
          let document = fanIn(n)
          return { Harness.check(validationProblems(document) == 0, "W11 fan-in") }
        },
        Case(name: "decode: a flood of bad nodes", size: benchSettings.quick ? 20_000 : 100_000) { n in
          let bytes = Array((#"{"nodes": ["# + Array(repeating: "1", count: n).joined(separator: ",") + "]}").utf8)
          return {
            guard case .invalid(let error)? = decodeError(bytes) else { return Harness.check(false, "W11 flood") }
            Harness.check(
              error.issues.count == GraphValidationError.reportedIssueLimit && error.totalCount == n, "W11 flood count")
          }
        },
        Case(name: "flow run --format json: many sinks", size: benchSettings.quick ? 5_000 : 10_000) { n in
          let nodes = (0..<n).map {
            FlowNode(id: "n\($0)", data: NodeSpec(kind: "number", params: ["value": .number(Double($0))]))
          }
          var evaluator = try! GraphEvaluator(validating: FlowDocument(nodes: nodes, edges: []), registry: .standard)
          evaluator.evaluate()
          let sinks = evaluator.sinks
          let result = RunResult(evaluator: evaluator, nodes: sinks)
          return { Harness.check(result.json().utf8.count > 20 * n, "W11 json output") }
        }
      ] + limitCases
    for item in cases {
      let small = measure(item, item.size)
      let large = measure(item, item.size * 10)
      let ratio = large.median / small.median
      Harness.emit(
        workload: "W11", metric: item.name, large, nodes: item.size * 10,
        variant: "n = \(item.size) → \(item.size * 10)",
        note: "thread CPU time(10n) / time(n), medians; linear ≈ 10, quadratic ≈ 100; fails above \(Int(item.bound))",
        extra: ["ratio_10n_vs_n": Harness.format(ratio, 2)])
      Harness.check(
        ratio < item.bound,
        "W11 \(item.name): 10× the input took \(Harness.format(ratio, 1))× the time (bound \(item.bound))")
    }
  }

  /// CPU time of this thread per run, in nanoseconds (one warm-up, then five runs): other
  /// processes on a shared machine slow the wall clock, not this.
  static func measure(_ item: Case, _ n: Int) -> Stat {
    let work = item.prepare(n)
    work()
    var samples: [Double] = []
    for _ in 0..<5 {
      let start = threadCPUTime()
      work()
      samples.append(Double(threadCPUTime() - start))
    }
    return Stat(samples)
  }

  static func threadCPUTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// A document with `n` extra top-level keys, each written twice (`n / 2` distinct).
  static func topLevelKeys(_ n: Int) -> [UInt8] {
    var text = #"{"nodes": [], "edges": []"#
    for index in 0..<n { text += #", "k\#(index % (n / 2))": \#(index)"# }
    return Array((text + "}").utf8)
  }

  /// One `expression` node summing `variables` variables, with `params` set to 1 and, when
  /// `handles`, every port declared as a handle.
  static func formulaDocument(variables: Int, params: [String], handles: Bool) -> FlowDocument {
    let formula = (0..<variables).map { "v\($0)" }.joined(separator: "+")
    var spec = NodeSpec(kind: "expression", params: JSONObject([JSONMember(key: "formula", value: .string(formula))]))
    spec.params.members += params.map { JSONMember(key: $0, value: .number(1)) }
    var node = FlowNode(id: "sum", data: spec)
    if handles {
      node.handles =
        (0..<variables).map { HandleDeclaration(id: "v\($0)", type: .target, position: .left) }
        + [HandleDeclaration(id: "result", type: .source, position: .right)]
    }
    return FlowDocument(nodes: [node], edges: [])
  }

  /// `n` number nodes, each feeding one variable of an `expression` summing them.
  static func fanIn(_ n: Int) -> FlowDocument {
    var document = formulaDocument(variables: n, params: [], handles: false)
    for index in 0..<n {
      document.nodes.append(FlowNode(id: "x\(index)", data: NodeSpec(kind: "number")))
      document.edges.append(
        FlowEdge(
          id: "e\(index)", sourceNodeID: "x\(index)", sourceHandleID: "value",
          targetNodeID: "sum", targetHandleID: "v\(index)"))
    }
    return document
  }

  /// How many problems validation finds in `document` (0 when it is valid).
  static func validationProblems(_ document: FlowDocument) -> Int {
    do {
      _ = try DocumentValidator.validate(document, catalog: NodeKindRegistry.standard)
      return 0
    } catch {
      return error.totalCount
    }
  }

  static func decodeError(_ bytes: [UInt8]) -> DocumentLoadError? {
    do {
      _ = try FlowDocument(jsonBytes: bytes)
      return nil
    } catch {
      return error
    }
  }
}
