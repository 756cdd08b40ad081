import FlowRuntime

/// `divide`: `result = a / b` (inputs default to 1); dividing by zero is an error, not ±inf.
struct DivideNode: BinaryArithmetic {
  var name: String { "divide" }
  var summary: String { "result = a / b (b = 0 is an error)" }
  static var identity: Double { 1.0 }

  func combine(_ a: Double, _ b: Double) throws -> Double {
    guard b != 0 else { throw NodeError("division by zero") }
    return a / b
  }
}

extension DivideNode: SQLRelationalKind {
  var sqlForm: SQLForm { .none(.textOrScalar) }
}
