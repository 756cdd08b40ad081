import FlowRuntime

/// `reduce`: folds a list with `op` (`sum`, `mean`, `min`, `max`, `count`, `first`, `last`, and
/// the analysis aggregates `median`, `std`, `var`, `quantile` with `q`), skipping nulls; an
/// empty list (or one of nulls only) gives null, and `count` gives 0. `true` counts as 1 and
/// `false` as 0 wherever numbers are summed or measured.
/// `sum` of integers is an exact integer (an error if it does not fit in `Int64`; integers are
/// exact, Reference.md, "Values and types"); other sums and means are compensated (``NeumaierSum``).
struct ReduceNode: NodeKind {
  var name: String { "reduce" }
  var summary: String {
    "result = sum, mean, min, max, count, first, last, median, std, var or quantile of the list's non-null items"
  }
  /// The folds `op` names.
  enum Operation: String, Sendable, CaseIterable {
    case sum, mean, min, max, count, first, last
    /// The analysis aggregates (``SampleStatistics``); `quantile` takes the param `q`.
    case median, std, `var`, quantile
  }

  static let operations = Operation.allCases.map(\.rawValue).joined(separator: ", ")
  var parameters: [ParameterDeclaration] {
    [
      ParameterDeclaration("op", .string, required: true, summary: Self.operations),
      ParameterDeclaration("q", .number, default: .number(0.5), summary: "the quantile of op quantile, from 0 to 1")
    ]
  }

  func instantiate(_ parameters: NodeParameters) throws(NodeConfigurationError) -> NodeInstance {
    let name = parameters.string("op") ?? ""
    guard let op = Operation(rawValue: name) else {
      throw NodeConfigurationError(parameter: "op", reason: "must be one of \(Self.operations), found \"\(name)\"")
    }
    let q = parameters.number("q") ?? 0.5
    guard q >= 0, q <= 1 else {
      throw NodeConfigurationError(
        parameter: "q", reason: "must be a number from 0 to 1, found \(Value.number(q).text)")
    }
    return NodeInstance(
      inputs: [InputPort("list", .list, default: .list([]))], outputs: [PortDeclaration("result", .any)],
      evaluator: Evaluator(op: op, q: q))
  }

  struct Evaluator: NodeEvaluator {
    let op: Operation
    var q = 0.5

    func evaluate(_ inputs: NodeInputs, _ outputs: inout NodeOutputs) throws {
      outputs[0] = try Self.reduce(try inputs.list(0), op, q: q)
    }

    /// `op` over the non-null items of `list`; errors name an item by its position in `list`
    /// (nulls included), counting from 1.
    static func reduce(_ list: [Value], _ op: Operation, q: Double = 0.5) throws -> Value {
      let items = list.enumerated().lazy.filter { !$0.element.isNull }.map { ($0.offset, $0.element.boolAsInteger) }
      switch op {
      case .median, .std, .var, .quantile:
        var values: [Double] = []
        for (index, item) in items {
          guard let value = item.numberValue else {
            throw NodeError("\(op.rawValue): item #\(index + 1) is \(item.typeName), not a number")
          }
          values.append(value)
        }
        let statistic =
          switch op {
          case .std: SampleStatistics.standardDeviation(values)
          case .var: SampleStatistics.variance(values)
          case .quantile: SampleStatistics.quantile(values, q)
          default: SampleStatistics.median(values)
          }
        return statistic.map(Value.number) ?? .null
      case .count:
        return .integer(Int64(items.count))
      case .first:
        return list.first(where: { !$0.isNull }) ?? .null
      case .last:
        return list.last(where: { !$0.isNull }) ?? .null
      case .sum, .mean:
        var integerSum: Int64 = 0
        var carries = 0  // net wraps past Int64: the exact sum is integerSum + carries × 2^64
        var allIntegers = op == .sum
        var sum = NeumaierSum()  // compensated: 365 × 2.3 is 828, not 827.9999999999995
        var count = 0
        for (index, item) in items {
          guard let value = item.numberValue else {
            throw NodeError("\(op.rawValue): item #\(index + 1) is \(item.typeName), not a number")
          }
          sum.add(value)
          count += 1
          if allIntegers, case .integer(let n) = item {
            let (next, overflow) = integerSum.addingReportingOverflow(n)
            integerSum = next
            if overflow { carries += n < 0 ? -1 : 1 }
          } else {
            allIntegers = false
          }
        }
        if count == 0 { return .null }
        if allIntegers {
          guard carries == 0 else {
            throw NodeError(
              "sum: the sum of the \(count) integers does not fit in a 64-bit integer (integer sums are exact)")
          }
          return .integer(integerSum)
        }
        return .number(op == .mean ? sum.value / Double(count) : sum.value)
      case .min, .max:
        var best: Value?
        for (index, item) in list.enumerated() where !item.isNull {
          guard let current = best else { best = item; continue }
          let order = try compare(item, current, index: index)
          if op == .min ? order < 0 : order > 0 { best = item }
        }
        return best ?? .null
      }
    }

    /// Compares two items of a list: numbers numerically, strings by Unicode scalars, bools.
    static func compare(_ a: Value, _ b: Value, index: Int) throws -> Int {
      if let x = a.numberValue, let y = b.numberValue { return CellOrder.compare(x, y) }
      switch (a, b) {
      case (.string(let x), .string(let y)):
        // By Unicode scalars, so equality too (Swift's `==` would equate "é" and "e" + U+0301).
        if x.unicodeScalars.elementsEqual(y.unicodeScalars) { return 0 }
        return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : 1
      case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
      default: throw NodeError("item #\(index + 1) is \(a.typeName), which does not compare with \(b.typeName)")
      }
    }
  }
}

extension Value {
  /// `true` as the integer 1 and `false` as 0 (`reduce` counts a bool so); any other value as
  /// it is.
  fileprivate var boolAsInteger: Value {
    if case .bool(let flag) = self { return .integer(flag ? 1 : 0) }
    return self
  }
}

extension ReduceNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.scalarOrList) }
}
