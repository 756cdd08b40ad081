import FlowRuntime

// The evaluation loop of ``Formula`` over raw buffers.
//
// Invariants (established by ``ScalarFormulaChecker`` and checked by the callers here):
// - a program is well formed: every instruction finds on the stack the operands its
//   `stackEffect` consumes, the depth never exceeds the program's `maxStackDepth`, and a complete
//   program leaves exactly one value;
// - every `.variable(index)` has `index < variables.count`, and the values buffer holds at least
//   `variables.count` numbers;
// - the stack buffer holds at least `maxStackDepth` numbers (`withUnsafeTemporaryAllocation`
//   keeps such small buffers on the machine stack, so an evaluation does not allocate).

extension Formula {
  /// Runs a program over an array of variable values; `nil` means a division by zero.
  static func execute(
    _ program: [FormulaInstruction], values: [Double], maxStackDepth: Int
  ) -> Double? {
    program.withUnsafeBufferPointer { code in
      values.withUnsafeBufferPointer { values in
        withUnsafeTemporaryAllocation(of: Double.self, capacity: maxStackDepth) { stack in
          FormulaInstruction.run(code, values: values, stack: stack)
        }
      }
    }
  }

  /// Evaluates the formula with variable `i` read from input `i` (as a number), without
  /// allocating: the variable values and the stack share one temporary buffer.
  ///
  /// - Throws: `NodeError` when an input is not a number, when there are fewer inputs than
  ///   variables, or for a division by zero ("division by zero").
  func evaluate(reading inputs: NodeInputs) throws -> Double {
    let variableCount = variables.count
    guard inputs.count >= variableCount else {
      throw NodeError("expected \(variableCount) inputs, got \(inputs.count)")
    }
    let result: Double? = try program.withUnsafeBufferPointer { code in
      try withUnsafeTemporaryAllocation(of: Double.self, capacity: variableCount + maxStackDepth) { buffer in
        for index in 0..<variableCount {
          buffer[index] = try inputs.number(index)
        }
        let values = UnsafeBufferPointer(rebasing: buffer[0..<variableCount])
        let stack = UnsafeMutableBufferPointer(rebasing: buffer[variableCount...])
        return FormulaInstruction.run(code, values: values, stack: stack)
      }
    }
    guard let result else { throw NodeError(FormulaError.divisionByZero.message) }
    return result
  }
}

extension FormulaInstruction {
  /// The evaluation loop. `stack` must hold at least the program's maximum depth; `values`
  /// must cover every variable index. Returns the single value left on the stack, or `nil`
  /// for a division by zero.
  static func run(
    _ code: UnsafeBufferPointer<FormulaInstruction>,
    values: UnsafeBufferPointer<Double>,
    stack: UnsafeMutableBufferPointer<Double>
  ) -> Double? {
    var top = -1  // index of the topmost value
    for instruction in code {
      switch instruction {
      case .constant(let value):
        top += 1
        stack[top] = value
      case .variable(let index):
        top += 1
        stack[top] = values[index]
      case .add:
        top -= 1
        stack[top] += stack[top + 1]
      case .subtract:
        top -= 1
        stack[top] -= stack[top + 1]
      case .multiply:
        top -= 1
        stack[top] *= stack[top + 1]
      case .divide:
        top -= 1
        let divisor = stack[top + 1]
        if divisor == 0 { return nil }
        stack[top] /= divisor
      case .remainder:
        top -= 1
        let divisor = stack[top + 1]
        if divisor == 0 { return nil }
        stack[top] = stack[top].truncatingRemainder(dividingBy: divisor)
      case .power:
        top -= 1
        stack[top] = formulaPower(stack[top], stack[top + 1])
      case .negate:
        stack[top] = -stack[top]
      case .unary(let function):
        stack[top] = function.apply(stack[top])
      case .binary(let function):
        top -= 1
        stack[top] = function.apply(stack[top], stack[top + 1])
      case .clamp:
        top -= 2
        stack[top] = formulaClamp(stack[top], stack[top + 1], stack[top + 2])
      case .minimum(let count):
        top -= count - 1
        var result = stack[top]
        for offset in 1..<count {
          result = formulaMinimum(result, stack[top + offset])
        }
        stack[top] = result
      case .maximum(let count):
        top -= count - 1
        var result = stack[top]
        for offset in 1..<count {
          result = formulaMaximum(result, stack[top + offset])
        }
        stack[top] = result
      }
    }
    return stack[0]
  }
}
