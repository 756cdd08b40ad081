/// The analysis aggregates over a sample of numbers (nulls already skipped): `median`,
/// `quantile`, `var` and `std`, as pandas and SQL define them. `groupBy` and `reduce` call these
/// per group; a `window` over a partition may call them on the partition's values.
///
/// - `quantile(q)`: linear interpolation between the order statistics at `(n − 1) × q`, as
///   pandas' default and DuckDB's `quantile_cont`; `median` is `quantile(0.5)`.
/// - `var`: the sample variance, Σ(x − mean)² / (n − 1), by two passes (a compensated mean,
///   then compensated squared deviations); `std` its square root. One value gives nil (null),
///   as pandas and SQL's `var_samp`.
/// - No value gives nil for every function. NaN orders above every number (``CellOrder``), and
///   propagates through `var`.
enum SampleStatistics {
  /// The `q`-quantile of `values` (any order; sorted here).
  ///
  /// - Precondition: `0 ≤ q ≤ 1`.
  /// - Complexity: O(*n* log *n*).
  static func quantile(_ values: [Double], _ q: Double) -> Double? {
    quantile(sorted: values.sorted { CellOrder.compare($0, $1) < 0 }, q)
  }

  /// The `q`-quantile of values already sorted ascending (NaN last).
  ///
  /// - Precondition: `0 ≤ q ≤ 1`.
  /// - Complexity: O(1).
  static func quantile<Values: RandomAccessCollection<Double>>(sorted values: Values, _ q: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let position = Double(values.count - 1) * q
    let lowerIndex = Int(position.rounded(.down))
    let lower = values[values.index(values.startIndex, offsetBy: lowerIndex)]
    let fraction = position - Double(lowerIndex)
    guard fraction > 0, lowerIndex + 1 < values.count else { return lower }
    let upper = values[values.index(values.startIndex, offsetBy: lowerIndex + 1)]
    // As DuckDB's interpolation: lower + (upper − lower) × fraction.
    return lower + (upper - lower) * fraction
  }

  /// The median: ``quantile(_:_:)`` at 0.5.
  static func median(_ values: [Double]) -> Double? { quantile(values, 0.5) }

  /// The sample variance (n − 1), nil for fewer than two values.
  ///
  /// - Complexity: O(*n*), two passes.
  static func variance<Values: Collection<Double>>(_ values: Values) -> Double? {
    guard values.count >= 2 else { return nil }
    var sum = NeumaierSum()
    for value in values { sum.add(value) }
    let mean = sum.value / Double(values.count)
    var squares = NeumaierSum()
    for value in values {
      let deviation = value - mean
      squares.add(deviation * deviation)
    }
    return squares.value / Double(values.count - 1)
  }

  /// The sample standard deviation: the square root of ``variance(_:)``.
  static func standardDeviation<Values: Collection<Double>>(_ values: Values) -> Double? {
    variance(values).map { $0.squareRoot() }
  }
}
