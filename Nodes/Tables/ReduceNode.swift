import FlowRuntime

/// `reduce`: folds a list with `op` (`sum`, `mean`, `min`, `max`, `count`, `first`, `last`),
/// skipping nulls; an empty list (or one of nulls only) gives null, and `count` gives 0.
struct ReduceNode: NodeKind {
  var name: String { "reduce" }
  var summary: String { "result = sum, mean, min, max, count, first or last of the list's non-null items" }
  static let operations = ["sum", "mean", "min", "max", "count", "first", "last"]
  var parameters: [ParameterDeclaration] {
    [ParameterDeclaration("op", .string, required: true, summary: Self.operations.joined(separator: ", "))]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let op = parameters.string("op") ?? ""
    guard Self.operations.contains(op) else {
      throw NodeConfigurationError(parameter: "op", reason: "must be one of \(Self.operations.joined(separator: ", ")), found \"\(op)\"")
    }
    return NodeInstance(inputs: [InputPort("list", .list, default: .list([]))], outputs: [PortDeclaration("result", .any)],
                        evaluator: Evaluator(op: op))
  }

  struct Evaluator: NodeEvaluator {
    let op: String

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      let items = try inputs.list(0).filter { !$0.isNull }
      outputs[0] = try Self.reduce(items, op)
    }

    static func reduce(_ items: [Value], _ op: String) throws -> Value {
      if op == "count" { return .integer(Int64(items.count)) }
      guard let first = items.first else { return .null }
      switch op {
      case "first": return first
      case "last": return items[items.count - 1]
      case "sum", "mean":
        var integerSum: Int64 = 0
        var allIntegers = op == "sum"
        var sum = 0.0
        for (index, item) in items.enumerated() {
          guard let value = item.numberValue else { throw NodeError("\(op): item #\(index + 1) is \(item.typeName), not a number") }
          sum += value
          if allIntegers, case .integer(let n) = item {
            let (next, overflow) = integerSum.addingReportingOverflow(n)
            integerSum = next
            allIntegers = !overflow
          } else {
            allIntegers = false
          }
        }
        if allIntegers { return .integer(integerSum) }
        return .number(op == "mean" ? sum / Double(items.count) : sum)
      default:
        var best = first
        for (index, item) in items.enumerated().dropFirst() {
          let order = try compare(item, best, index: index)
          if op == "min" ? order < 0 : order > 0 { best = item }
        }
        return best
      }
    }

    /// Compares two items of a list: numbers numerically, strings by Unicode scalars, bools.
    static func compare(_ a: Value, _ b: Value, index: Int) throws -> Int {
      if let x = a.numberValue, let y = b.numberValue { return CellOrder.compare(x, y) }
      switch (a, b) {
      case (.string(let x), .string(let y)):
        return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : (x == y ? 0 : 1)
      case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
      default: throw NodeError("item #\(index + 1) is \(a.typeName), which does not compare with \(b.typeName)")
      }
    }
  }
}
