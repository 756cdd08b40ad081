#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(ucrt)
import ucrt
#endif

/// The numeric functions of both formula languages, e.g. `sqrt(x)` or `clamp(x, 0, 1)`: their
/// names (each case's raw value is the name a formula calls it by), arities and implementations
/// (``FormulaBuiltin/table`` gives each one entry with its summary and example).
package enum FormulaFunction: String, Sendable, Hashable, CaseIterable {
  case sqrt, abs, min, max, floor, ceil, round
  case sin, cos, tan, asin, acos, atan, atan2
  case log, ln, log10, log2, exp, pow
  case sign, trunc, hypot, clamp

  /// Looks a function up by its (case-sensitive) name: the case's raw value.
  init?(name: String) { self.init(rawValue: name) }

  /// The name a formula calls it by: the case's raw value, the one place it is spelt.
  package var name: String { rawValue }

  var arity: FormulaBuiltin.Arity {
    switch self {
    case .min, .max: .atLeast(1)
    case .pow, .atan2, .hypot: .exactly(2)
    case .clamp: .exactly(3)
    case .round: .between(1, 2)
    default: .exactly(1)
    }
  }

  /// Applies a one-argument function. Only meaningful for functions of arity 1.
  @inline(__always)
  func apply(_ x: Double) -> Double {
    formulaApply(self, x)
  }

  /// Applies a two-argument function (`pow`, `atan2`, `hypot`, `round(x, digits)`, and
  /// `min`/`max` with two arguments). Only meaningful for those functions.
  @inline(__always)
  func apply(_ x: Double, _ y: Double) -> Double {
    formulaApply(self, x, y)
  }
}

// The implementations live in free functions so that unqualified names such as `sin` refer to
// the C math library rather than to the enum cases of the same name.

@inline(__always)
private func formulaApply(_ function: FormulaFunction, _ x: Double) -> Double {
  switch function {
  case .sqrt: x.squareRoot()
  case .abs: x.magnitude
  case .min, .max: x
  case .floor: x.rounded(.down)
  case .ceil: x.rounded(.up)
  case .round: x.rounded(.toNearestOrAwayFromZero)
  case .trunc: x.rounded(.towardZero)
  case .sin: sin(x)
  case .cos: cos(x)
  case .tan: tan(x)
  case .asin: asin(x)
  case .acos: acos(x)
  case .atan: atan(x)
  case .log, .ln: log(x)
  case .log10: log10(x)
  case .log2: log2(x)
  case .exp: exp(x)
  case .sign: x > 0 ? 1 : (x < 0 ? -1 : x)  // keeps ±0 and NaN
  case .atan2, .pow, .hypot, .clamp: .nan  // not unary; never emitted as such
  }
}

@inline(__always)
private func formulaApply(_ function: FormulaFunction, _ x: Double, _ y: Double) -> Double {
  switch function {
  case .pow: formulaPower(x, y)
  case .atan2: atan2(x, y)
  case .hypot: hypot(x, y)
  case .min: formulaMinimum(x, y)
  case .max: formulaMaximum(x, y)
  case .round: formulaRound(x, digits: y)
  default: .nan  // not binary; never emitted as such
  }
}

/// `x ^ y` and `pow(x, y)`.
@inline(__always)
func formulaPower(_ x: Double, _ y: Double) -> Double {
  pow(x, y)
}

/// `min` that propagates NaN (a NaN argument makes the result NaN).
@inline(__always)
func formulaMinimum(_ x: Double, _ y: Double) -> Double {
  if x.isNaN || y.isNaN { return .nan }
  return y < x ? y : x
}

/// `max` that propagates NaN (a NaN argument makes the result NaN).
@inline(__always)
func formulaMaximum(_ x: Double, _ y: Double) -> Double {
  if x.isNaN || y.isNaN { return .nan }
  return y > x ? y : x
}

/// `clamp(x, lo, hi)` = `min(max(x, lo), hi)`; when `lo > hi` the result is `hi`.
@inline(__always)
func formulaClamp(_ x: Double, _ low: Double, _ high: Double) -> Double {
  formulaMinimum(formulaMaximum(x, low), high)
}
