import FlowRuntime

/// Column-at-a-time comparisons, three-valued logic, `isNull` and `if`.
extension RowVector {
  /// `left op right`: null where either side is null. Numbers compare as IEEE doubles (two
  /// integers exactly), strings by Unicode scalar values, bools with `false < true`.
  static func compare(_ op: RowComparison, _ left: RowVector, _ right: RowVector, count: Int) -> RowVector {
    if left.isAllNull || right.isAllNull { return .null }
    let valid = both(left.valid, right.valid)
    var result = [Bool](repeating: false, count: count)
    switch (left, right) {
    case (.integer(let a, _), .integer(let b, _)):
      for row in 0..<count { result[row] = op.holds(a[row], b[row]) }
    case (.string(let a, _), .string(let b, _)):
      // Unicode scalar order (the order of the UTF-8 bytes), no locale, no normalization.
      for row in 0..<count { result[row] = op.holds(a.compare(row, with: b, row)) }
    case (.bool(let a, _), .bool(let b, _)):
      for row in 0..<count { result[row] = op.holds(a[row] == b[row] ? 0 : (a[row] ? 1 : -1)) }
    default:
      let a = left.numbers, b = right.numbers
      for row in 0..<count { result[row] = op.holds(a[row], b[row]) }
    }
    return .bool(result, valid: valid)
  }

  /// `left op literal`, the same as comparing with the literal broadcast to a column.
  static func compare(_ op: RowComparison, _ left: RowVector, literal: RowFormulaStep, count: Int) -> RowVector {
    if left.isAllNull { return .null }
    var result = [Bool](repeating: false, count: count)
    switch (left, literal) {
    case (.integer(let a, _), .integer(let n)):
      for row in 0..<count { result[row] = op.holds(a[row], n) }
    case (.integer(let a, _), .number(let x)):
      for row in 0..<count { result[row] = op.holds(Double(a[row]), x) }
    case (.number(let a, _), .integer(let n)):
      let x = Double(n)
      for row in 0..<count { result[row] = op.holds(a[row], x) }
    case (.number(let a, _), .number(let x)):
      for row in 0..<count { result[row] = op.holds(a[row], x) }
    case (.string(let a, _), .string(let text)) where a.isDictionaryEncoded:
      // Compared once per dictionary entry, then each row looks its entry up.
      let holds = entryHolds(op, a.dictionary!, text), codes = a.codes!
      for row in 0..<count { result[row] = holds[Int(codes[row])] }
    case (.string(let a, _), .string(let text)):
      let literal = Array(text.utf8), bytes = a.bytes, offsets = a.offsets
      for row in 0..<count {
        let start = offsets[row], end = offsets[row + 1]
        if (op == .equal || op == .notEqual) && end - start != literal.count {
          result[row] = op == .notEqual  // different lengths: not equal, no bytes to compare
          continue
        }
        result[row] = op.holds(scalarOrder(bytes, start, end, literal))
      }
    default:
      return compare(op, left, .broadcast(literal, count: count), count: count)
    }
    return .bool(result, valid: left.valid)
  }

  /// Whether `entry op text` holds for each entry of a dictionary's (flat) `entries`: a
  /// dictionary column compared once per entry.
  static func entryHolds(_ op: RowComparison, _ entries: StringColumn, _ text: String) -> [Bool] {
    let literal = Array(text.utf8), (bytes, offsets) = (entries.bytes, entries.offsets)
    return (0..<entries.count).map { op.holds(scalarOrder(bytes, offsets[$0], offsets[$0 + 1], literal)) }
  }

  /// -1, 0 or 1: the order of the UTF-8 bytes `bytes[start..<end]` and `literal` (the order of
  /// their Unicode scalars).
  @inline(__always)
  static func scalarOrder(_ bytes: [UInt8], _ start: Int, _ end: Int, _ literal: [UInt8]) -> Int {
    let length = min(end - start, literal.count)
    for index in 0..<length where bytes[start + index] != literal[index] {
      return bytes[start + index] < literal[index] ? -1 : 1
    }
    let (left, right) = (end - start, literal.count)
    return left == right ? 0 : (left < right ? -1 : 1)
  }

  /// Three-valued `and` / `or` (`null and false` is false, `null or true` is true).
  static func logic(isAnd: Bool, _ left: RowVector, _ right: RowVector, count: Int) -> RowVector {
    let (a, validA) = left.bools(count: count), (b, validB) = right.bools(count: count)
    var result = [Bool](repeating: false, count: count)
    var valid: [Bool]? = validA == nil && validB == nil ? nil : [Bool](repeating: true, count: count)
    for row in 0..<count {
      let knownA = validA?[row] ?? true, knownB = validB?[row] ?? true
      // The value that decides the result on its own: false for `and`, true for `or`.
      let decisive = !isAnd
      if (knownA && a[row] == decisive) || (knownB && b[row] == decisive) {
        result[row] = decisive
      } else if knownA && knownB {
        result[row] = !decisive
      } else {
        valid?[row] = false
      }
    }
    return .bool(result, valid: valid)
  }

  /// `not`: null stays null.
  func negatedLogically() -> RowVector {
    guard case .bool(let values, let valid) = self else { return .null }
    return .bool(values.map { !$0 }, valid: valid)
  }

  /// `isNull(x)`: never null.
  func nullTest(count: Int) -> RowVector {
    if isAllNull { return .bool([Bool](repeating: true, count: count), valid: nil) }
    guard let valid else { return .bool([Bool](repeating: false, count: count), valid: nil) }
    return .bool(valid.map { !$0 }, valid: nil)
  }

  /// `if(condition, then, otherwise)`: `then` where the condition is true, else `otherwise`
  /// (a null condition picks `otherwise`). Integers and numbers mix as numbers.
  static func choose(_ condition: RowVector, _ then: RowVector, _ otherwise: RowVector, count: Int) -> RowVector {
    let (values, known) = condition.bools(count: count)
    let pick = (0..<count).map { values[$0] && (known?[$0] ?? true) }
    switch RowFormulaChecker.unify(then.type, otherwise.type) {
    case .integer?:
      return select(then, otherwise, pick) { if case .integer(let v, _) = $0 { v } else { nil } }
        .map { .integer($0, valid: $1) } ?? .null
    case .number?:
      return select(then, otherwise, pick) { $0.isAllNull ? nil : $0.numbers }
        .map { .number($0, valid: $1) } ?? .null
    case .bool?:
      return select(then, otherwise, pick) { if case .bool(let v, _) = $0 { v } else { nil } }
        .map { .bool($0, valid: $1) } ?? .null
    case .string?:
      return selectStrings(then, otherwise, pick)
    default:
      return .null
    }
  }

  /// Row-wise selection between two columns whose values `extract` gives (nil for `.null`).
  private static func select<T>(
    _ then: RowVector, _ otherwise: RowVector, _ pick: [Bool], extract: (RowVector) -> [T]?
  ) -> ([T], [Bool]?)? {
    let a = extract(then), b = extract(otherwise)
    if pick.isEmpty, a != nil || b != nil { return ([], nil) }
    guard let fill = a?.first ?? b?.first else { return nil }
    let count = pick.count
    var result = [T](repeating: fill, count: count)
    var valid = [Bool](repeating: true, count: count)
    var anyNull = false
    for row in 0..<count {
      let (side, values) = pick[row] ? (then, a) : (otherwise, b)
      if let values, side.isValid(row) {
        result[row] = values[row]
      } else {
        valid[row] = false
        anyNull = true
      }
    }
    return (result, anyNull ? valid : nil)
  }
}

extension RowVector {
  /// ``select(_:_:_:extract:)`` for strings, copying UTF-8 bytes from the picked side.
  fileprivate static func selectStrings(_ then: RowVector, _ otherwise: RowVector, _ pick: [Bool]) -> RowVector {
    func strings(_ vector: RowVector) -> StringColumn? {
      if case .string(let values, _) = vector { values } else { nil }
    }
    let a = strings(then), b = strings(otherwise)
    var result = StringColumn()
    var valid = [Bool](repeating: true, count: pick.count)
    var anyNull = false
    for row in pick.indices {
      let (side, values) = pick[row] ? (then, a) : (otherwise, b)
      if let values, side.isValid(row) {
        result.append(utf8: values.utf8(row))
      } else {
        result.appendEmpty()
        valid[row] = false
        anyNull = true
      }
    }
    return .string(result, valid: anyNull ? valid : nil)
  }
}

extension RowComparison {
  /// Whether `a op b` holds for comparable values (IEEE semantics for doubles: NaN is unordered).
  @inline(__always)
  func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
    switch self {
    case .less: a < b
    case .lessOrEqual: a <= b
    case .equal: a == b
    case .notEqual: a != b
    case .greaterOrEqual: a >= b
    case .greater: a > b
    }
  }
}
