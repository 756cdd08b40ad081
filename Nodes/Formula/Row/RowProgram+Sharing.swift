/// A `derive`'s later formulas reusing the columns its earlier ones computed.
extension RowProgram {
  /// Programs of at most this many instructions share values (the search compares every
  /// start with the earlier program, so it is bounded: linear in a derive's entries).
  static let sharingInstructions = 64

  /// This program with each run of instructions equal to `earlier`'s whole program replaced by
  /// a read of `column`, which holds the value `earlier` computed; `self` when none is found.
  ///
  /// A run equal to a whole program takes nothing from the stack below it and leaves one value,
  /// which depends on the run alone, so a read of that value is the same program. The caller
  /// makes sure `column` still holds `earlier`'s result and that the columns `earlier` reads
  /// were not replaced in between (its `.column` instructions name the same columns here).
  ///
  /// - Complexity: O(instructions × `earlier`'s instructions), both at most `sharingInstructions`.
  func reading(_ earlier: RowProgram, from column: Int) -> RowProgram {
    let pattern = earlier.instructions
    guard pattern.count >= 2, pattern.count <= Self.sharingInstructions,
      instructions.count <= Self.sharingInstructions, pattern.count < instructions.count,
      earlier.resultType != .null, earlier.resultType != .unknown
    else { return self }
    var shared: [RowInstruction] = [], sharedOffsets: [Int] = []
    var index = 0
    while index < instructions.count {
      if instructions.count - index >= pattern.count,
        instructions[index..<index + pattern.count].elementsEqual(pattern),
        instructions[index..<index + pattern.count].elementsEqual(pattern, by: Self.identical)
      {
        shared.append(.column(column))
        sharedOffsets.append(offsets[index])
        index += pattern.count
      } else {
        shared.append(instructions[index])
        sharedOffsets.append(offsets[index])
        index += 1
      }
    }
    guard shared.count < instructions.count else { return self }
    return RowProgram(
      instructions: shared, offsets: sharedOffsets, source: source, resultType: resultType, maxDepth: maxDepth)
  }

  /// Whether two instructions are equal and also the same bytes: `==` holds for canonically
  /// equivalent strings of different bytes (`"é"` and `"e\u{301}"`), which the evaluator
  /// compares and writes byte for byte, and for `0.0` and `-0.0`; so the texts inside are
  /// compared by their UTF-8 and the numbers by their bit patterns.
  static func identical(_ left: RowInstruction, _ right: RowInstruction) -> Bool {
    guard left == right else { return false }
    switch (left, right) {
    case (.step(let one), .step(let other)), (.compareWithLiteral(_, let one), .compareWithLiteral(_, let other)),
      (.arithmeticWithLiteral(_, let one), .arithmeticWithLiteral(_, let other)),
      (.literalArithmetic(_, let one), .literalArithmetic(_, let other)):
      return one.isIdentical(to: other)
    case (.memberOfLiterals(let one), .memberOfLiterals(let other)):
      return one.elementsEqual(other) { $0.isIdentical(to: $1) }
    default:
      return true  // no text or number inside (a like pattern is its bytes already)
    }
  }

  /// The columns the program reads.
  var columnsRead: Set<Int> {
    Set(
      instructions.compactMap { instruction in
        if case .column(let index) = instruction { return index }
        return nil
      })
  }
}

extension RowFormulaStep {
  /// Whether this step, equal to `other` (the caller checked `==`: the functions and operators
  /// match), is also the same bytes: its texts' UTF-8 and its numbers' bit patterns (see
  /// `RowProgram.identical`).
  func isIdentical(to other: RowFormulaStep) -> Bool {
    switch (self, other) {
    case (.number(let one), .number(let two)): one.bitPattern == two.bitPattern
    case (.string(let one), .string(let two)), (.column(let one), .column(let two)): one.utf8.elementsEqual(two.utf8)
    case (.date(_, let one), .date(_, let two)):
      one.elementsEqual(two) { ($0.map { Array($0.utf8) }) == ($1.map { Array($0.utf8) }) }
    default: self == other
    }
  }
}
