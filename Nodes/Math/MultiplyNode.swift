/// `multiply`: `result = a * b` (inputs default to 1).
struct MultiplyNode: BinaryArithmetic {
  let name = "multiply"
  let summary = "result = a * b"
  static let identity = 1.0

  func combine(_ a: Double, _ b: Double) -> Double { a * b }
}
