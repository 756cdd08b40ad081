/// `add`: `result = a + b` (inputs default to 0).
struct AddNode: BinaryArithmetic {
  let name = "add"
  let summary = "result = a + b"
  static let identity = 0.0

  func combine(_ a: Double, _ b: Double) -> Double { a + b }
}
