/// A node's computation on unboxed numbers: the engine's typed fast path.
///
/// A kind whose inputs and one output are numbers (or integers) can offer this besides its
/// `NodeEvaluator`. The engine then reads the inputs from its 8-byte slots, calls the function
/// and compares the result in place: no `Value`s, no input array, no existential call. The
/// `NodeEvaluator` stays the reference and is used whenever an input holds anything else (a
/// `null`, a string on an `any` port), so both paths must compute the same thing; the engine's
/// tests check that for every standard kind.
///
/// Inputs convert as `NodeInputs.number(_:)` and `integer(_:)` do: an integer reads as a number
/// for `numbers`, a number is *not* an integer for `integers` (that input goes to the boxed
/// path, which reports the error).
///
/// ```swift
/// var scalarEvaluation: ScalarEvaluation? { .numbers { a, b in a + b } }
/// ```
public final class ScalarEvaluation: Sendable {
  enum Body: Sendable {
    case number1(@Sendable (Double) throws -> Double)
    case number2(@Sendable (Double, Double) throws -> Double)
    case integer1(@Sendable (Int64) throws -> Int64)
    case integer2(@Sendable (Int64, Int64) throws -> Int64)
    case integerFold(Int64, @Sendable (Int64, Int64) -> Int64)
    case numberFold(Double, @Sendable (Double, Double) -> Double)
  }

  let body: Body

  init(body: Body) { self.body = body }

  /// One number input to one number output.
  public static func numbers(_ function: @escaping @Sendable (Double) throws -> Double) -> ScalarEvaluation {
    ScalarEvaluation(body: .number1(function))
  }

  /// Two number inputs to one number output.
  public static func numbers(_ function: @escaping @Sendable (Double, Double) throws -> Double) -> ScalarEvaluation {
    ScalarEvaluation(body: .number2(function))
  }

  /// One integer input to one integer output.
  public static func integers(_ function: @escaping @Sendable (Int64) throws -> Int64) -> ScalarEvaluation {
    ScalarEvaluation(body: .integer1(function))
  }

  /// Two integer inputs to one integer output.
  public static func integers(_ function: @escaping @Sendable (Int64, Int64) throws -> Int64) -> ScalarEvaluation {
    ScalarEvaluation(body: .integer2(function))
  }

  /// Any number of integer inputs folded from `initial` in port order (a sum: `.foldingIntegers(0, &+)`).
  public static func foldingIntegers(_ initial: Int64, _ combine: @escaping @Sendable (Int64, Int64) -> Int64) -> ScalarEvaluation {
    ScalarEvaluation(body: .integerFold(initial, combine))
  }

  /// Any number of number inputs folded from `initial` in port order.
  public static func foldingNumbers(_ initial: Double, _ combine: @escaping @Sendable (Double, Double) -> Double) -> ScalarEvaluation {
    ScalarEvaluation(body: .numberFold(initial, combine))
  }

  /// How many inputs the function takes (`nil`: any number).
  var arity: Int? {
    switch body {
    case .number1, .integer1: 1
    case .number2, .integer2: 2
    case .integerFold, .numberFold: nil
    }
  }
}
