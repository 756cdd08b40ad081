import FlowRuntime

/// `subtract`: `result = a - b` (inputs default to 0).
struct SubtractNode: BinaryArithmetic {
  var name: String { "subtract" }
  var summary: String { "result = a - b" }
  static var identity: Double { 0.0 }

  func combine(_ a: Double, _ b: Double) -> Double { a - b }
}

extension SubtractNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
