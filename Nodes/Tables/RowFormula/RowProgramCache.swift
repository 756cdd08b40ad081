import Synchronization

/// The programs a node compiled for the last table schema it saw, so a node compiles its row
/// formulas once per schema rather than once per pass. Shared by every evaluation of one
/// configured node (evaluations may run on any thread; the lock is held only to read or
/// replace the entry, never while compiling).
final class RowProgramCache: Sendable {
  private let last = Mutex<(schema: RowSchema, programs: [RowProgram])?>(nil)

  /// The programs for `schema`: the cached ones if the schema is the last one seen, else
  /// `compile(schema)`, which then replaces the entry.
  ///
  /// - Throws: what `compile` throws (nothing is cached then).
  func programs(
    for schema: RowSchema, compile: (RowSchema) throws(FormulaError) -> [RowProgram]
  ) throws(FormulaError) -> [RowProgram] {
    let cached = last.withLock { entry -> [RowProgram]? in
      guard let entry, entry.schema == schema else { return nil }
      return entry.programs
    }
    if let cached { return cached }
    let programs = try compile(schema)
    last.withLock { $0 = (schema, programs) }
    return programs
  }
}
