/// Column-at-a-time arithmetic and numeric functions. A null operand row gives a null row; a
/// division or remainder by zero gives null.
extension RowVector {
  /// `left op right`; nil when an integer `+ - *` overflows in a row where both are valid.
  static func arithmetic(_ op: RowArithmetic, _ left: RowVector, _ right: RowVector, count: Int) -> RowVector? {
    if left.isAllNull || right.isAllNull { return .null }
    let valid = both(left.valid, right.valid)
    if case .integer(let a, _) = left, case .integer(let b, _) = right,
      op == .add || op == .subtract || op == .multiply
    {
      var result = [Int64](repeating: 0, count: count)
      for row in 0..<count {
        let (value, overflow): (Int64, Bool)
        switch op {
        case .add: (value, overflow) = a[row].addingReportingOverflow(b[row])
        case .subtract: (value, overflow) = a[row].subtractingReportingOverflow(b[row])
        default: (value, overflow) = a[row].multipliedReportingOverflow(by: b[row])
        }
        if overflow, valid?[row] ?? true { return nil }
        result[row] = value
      }
      return .integer(result, valid: valid)
    }
    let a = left.numbers, b = right.numbers
    switch op {
    case .add: return .number(UnsafeNumberKernels.combine(a, b, count: count, +), valid: valid)
    case .subtract: return .number(UnsafeNumberKernels.combine(a, b, count: count, -), valid: valid)
    case .multiply: return .number(UnsafeNumberKernels.combine(a, b, count: count, *), valid: valid)
    case .power: return .number(UnsafeNumberKernels.combine(a, b, count: count, formulaPower), valid: valid)
    case .divide, .remainder:
      var result = [Double](repeating: 0, count: count)
      var validity = valid
      for row in 0..<count {
        let divisor = b[row]
        if divisor == 0 {
          if validity == nil { validity = [Bool](repeating: true, count: count) }
          validity?[row] = false
        } else {
          result[row] = op == .divide ? a[row] / divisor : a[row].truncatingRemainder(dividingBy: divisor)
        }
      }
      return .number(result, valid: validity)
    }
  }

  /// `literal op right` for a numeric literal and `+`, `-` or `*`: the same as broadcasting it,
  /// without the column (`+` and `*` commute exactly, for integers and doubles alike).
  static func arithmetic(_ op: RowArithmetic, literal: RowFormulaStep, _ right: RowVector, count: Int) -> RowVector? {
    switch op {
    case .add, .multiply:
      return arithmetic(op, right, literal: literal, count: count)
    case .subtract:
      if right.isAllNull { return .null }
      let valid = right.valid
      if case .integer(let b, _) = right, case .integer(let n) = literal {
        var result = [Int64](repeating: 0, count: count)
        for row in 0..<count {
          let (value, overflow) = n.subtractingReportingOverflow(b[row])
          if overflow, valid?[row] ?? true { return nil }
          result[row] = value
        }
        return .integer(result, valid: valid)
      }
      let a: Double
      switch literal {
      case .integer(let n): a = Double(n)
      case .number(let x): a = x
      default: return arithmetic(op, .broadcast(literal, count: count), right, count: count)
      }
      return .number(UnsafeNumberKernels.transform(right.numbers, count: count) { a - $0 }, valid: valid)
    case .divide, .remainder, .power:
      return arithmetic(op, .broadcast(literal, count: count), right, count: count)
    }
  }

  /// `left op literal` for a numeric literal: the same as broadcasting it, without the column.
  static func arithmetic(_ op: RowArithmetic, _ left: RowVector, literal: RowFormulaStep, count: Int) -> RowVector? {
    if left.isAllNull { return .null }
    let valid = left.valid
    if case .integer(let a, _) = left, case .integer(let n) = literal,
      op == .add || op == .subtract || op == .multiply
    {
      var result = [Int64](repeating: 0, count: count)
      for row in 0..<count {
        let (value, overflow): (Int64, Bool)
        switch op {
        case .add: (value, overflow) = a[row].addingReportingOverflow(n)
        case .subtract: (value, overflow) = a[row].subtractingReportingOverflow(n)
        default: (value, overflow) = a[row].multipliedReportingOverflow(by: n)
        }
        if overflow, valid?[row] ?? true { return nil }
        result[row] = value
      }
      return .integer(result, valid: valid)
    }
    let b: Double
    switch literal {
    case .integer(let n): b = Double(n)
    case .number(let x): b = x
    default: return arithmetic(op, left, .broadcast(literal, count: count), count: count)
    }
    let a = left.numbers
    switch op {
    case .add: return .number(UnsafeNumberKernels.transform(a, count: count) { $0 + b }, valid: valid)
    case .subtract: return .number(UnsafeNumberKernels.transform(a, count: count) { $0 - b }, valid: valid)
    case .multiply: return .number(UnsafeNumberKernels.transform(a, count: count) { $0 * b }, valid: valid)
    case .power: return .number(UnsafeNumberKernels.transform(a, count: count) { formulaPower($0, b) }, valid: valid)
    case .divide, .remainder:
      if b == 0 { return .number([Double](repeating: 0, count: count), valid: [Bool](repeating: false, count: count)) }
      return .number(op == .divide ? a.map { $0 / b } : a.map { $0.truncatingRemainder(dividingBy: b) }, valid: valid)
    }
  }

  /// Unary minus; nil when negating the smallest integer in a valid row.
  func negated() -> RowVector? {
    switch self {
    case .integer(let values, let valid):
      var result = values
      for row in values.indices {
        if values[row] == .min {
          if valid?[row] ?? true { return nil }
        } else {
          result[row] = -values[row]
        }
      }
      return .integer(result, valid: valid)
    case .number(let values, let valid):
      return .number(values.map { -$0 }, valid: valid)
    default:
      return .null
    }
  }

  /// A numeric function of ``FormulaFunction`` applied row by row.
  static func call(_ function: FormulaFunction, _ operands: [RowVector], count: Int) -> RowVector {
    if operands.contains(where: \.isAllNull) { return .null }
    var valid: [Bool]? = nil
    for operand in operands { valid = both(valid, operand.valid) }
    let arguments = operands.map(\.numbers)
    var result = [Double](repeating: 0, count: count)
    switch (function, arguments.count) {
    case (_, 1):
      let x = arguments[0]
      for row in 0..<count { result[row] = function.apply(x[row]) }
    case (.clamp, _):
      let (x, low, high) = (arguments[0], arguments[1], arguments[2])
      for row in 0..<count { result[row] = formulaClamp(x[row], low[row], high[row]) }
    case (.min, _), (.max, _):
      result = arguments[0]
      for argument in arguments.dropFirst() {
        for row in 0..<count {
          result[row] =
            function == .min
            ? formulaMinimum(result[row], argument[row])
            : formulaMaximum(result[row], argument[row])
        }
      }
    default:
      let (x, y) = (arguments[0], arguments[1])
      for row in 0..<count { result[row] = function.apply(x[row], y[row]) }
    }
    return .number(result, valid: valid)
  }
}
