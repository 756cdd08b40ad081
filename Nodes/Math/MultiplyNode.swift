import FlowRuntime

/// `multiply`: `result = a * b` (inputs default to 1).
struct MultiplyNode: BinaryArithmetic {
  var name: String { "multiply" }
  var summary: String { "result = a * b" }
  static var identity: Double { 1.0 }

  func combine(_ a: Double, _ b: Double) -> Double { a * b }
}

extension MultiplyNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
