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
    /// The one input unchanged (a subgraph boundary or instance node); with no output, nothing.
    case forward
  }

  let body: Body
  // The body's function again, in the stored property of its shape (the others `nil`), so the
  // engine, which already knows the shape from the node's record, calls it without switching
  // on `body` (and without copying — retaining — the enum's payload).
  let number1: (@Sendable (Double) throws -> Double)?
  let number2: (@Sendable (Double, Double) throws -> Double)?
  let integer1: (@Sendable (Int64) throws -> Int64)?
  let integer2: (@Sendable (Int64, Int64) throws -> Int64)?
  let integerFold: (@Sendable (Int64, Int64) -> Int64)?
  let numberFold: (@Sendable (Double, Double) -> Double)?
  let integerInitial: Int64
  let numberInitial: Double

  init(body: Body) {
    self.body = body
    var number1: (@Sendable (Double) throws -> Double)?, number2: (@Sendable (Double, Double) throws -> Double)?
    var integer1: (@Sendable (Int64) throws -> Int64)?, integer2: (@Sendable (Int64, Int64) throws -> Int64)?
    var integerFold: (@Sendable (Int64, Int64) -> Int64)?, numberFold: (@Sendable (Double, Double) -> Double)?
    var integerInitial: Int64 = 0, numberInitial = 0.0
    switch body {
    case .number1(let function): number1 = function
    case .number2(let function): number2 = function
    case .integer1(let function): integer1 = function
    case .integer2(let function): integer2 = function
    case .integerFold(let initial, let combine): (integerInitial, integerFold) = (initial, combine)
    case .numberFold(let initial, let combine): (numberInitial, numberFold) = (initial, combine)
    case .forward: break
    }
    (self.number1, self.number2, self.integer1, self.integer2) = (number1, number2, integer1, integer2)
    (self.integerFold, self.numberFold) = (integerFold, numberFold)
    (self.integerInitial, self.numberInitial) = (integerInitial, numberInitial)
  }

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
  public static func foldingIntegers(_ initial: Int64, _ combine: @escaping @Sendable (Int64, Int64) -> Int64)
    -> ScalarEvaluation
  {
    ScalarEvaluation(body: .integerFold(initial, combine))
  }

  /// Any number of number inputs folded from `initial` in port order.
  public static func foldingNumbers(_ initial: Double, _ combine: @escaping @Sendable (Double, Double) -> Double)
    -> ScalarEvaluation
  {
    ScalarEvaluation(body: .numberFold(initial, combine))
  }

  /// Forwards its one input, a number, integer or bool, to its one output (or, without an
  /// output, does nothing): the typed path of `Forward` nodes.
  static let forward = ScalarEvaluation(body: .forward)

  /// How many inputs the function takes (`nil`: any number).
  var arity: Int? {
    switch body {
    case .number1, .integer1: 1
    case .number2, .integer2: 2
    case .integerFold, .numberFold: nil
    case .forward: 1
    }
  }
}
