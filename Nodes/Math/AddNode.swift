import FlowRuntime

/// `add`: `result = a + b` (inputs default to 0).
struct AddNode: BinaryArithmetic {
  var name: String { "add" }
  var summary: String { "result = a + b" }
  static var identity: Double { 0.0 }

  func combine(_ a: Double, _ b: Double) -> Double { a + b }
}

extension AddNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
