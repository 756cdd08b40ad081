/// The element-wise loops of number arithmetic over one or two vectors (`RowVector.arithmetic`):
/// each result written once into a new array, over buffer pointers, in a loop the compiler
/// vectorizes (the checked loop it replaces zero-filled the result first and tested every
/// index).
///
/// Invariants: the operands hold at least `count` values (a precondition), so every read is
/// inside them; the result is allocated at `count` elements and element `i` is initialized
/// exactly once, by the iteration `i`, before the array is returned.
enum UnsafeNumberKernels {
  /// `operation(left[i], right[i])` for each `i` below `count`.
  @inline(__always)
  static func combine(_ left: [Double], _ right: [Double], count: Int, _ operation: (Double, Double) -> Double)
    -> [Double]
  {
    precondition(count >= 0 && left.count >= count && right.count >= count, "operands shorter than the rows")
    guard count > 0 else { return [] }
    return left.withUnsafeBufferPointer { left in
      right.withUnsafeBufferPointer { right in
        [Double](unsafeUninitializedCapacity: count) { target, initialized in
          let base = target.baseAddress!, a = left.baseAddress!, b = right.baseAddress!
          for index in 0..<count { (base + index).initialize(to: operation(a[index], b[index])) }
          initialized = count
        }
      }
    }
  }

  /// `operation(values[i])` for each `i` below `count`.
  @inline(__always)
  static func transform(_ values: [Double], count: Int, _ operation: (Double) -> Double) -> [Double] {
    precondition(count >= 0 && values.count >= count, "an operand shorter than the rows")
    guard count > 0 else { return [] }
    return values.withUnsafeBufferPointer { values in
      [Double](unsafeUninitializedCapacity: count) { target, initialized in
        let base = target.baseAddress!, a = values.baseAddress!
        for index in 0..<count { (base + index).initialize(to: operation(a[index])) }
        initialized = count
      }
    }
  }
}
