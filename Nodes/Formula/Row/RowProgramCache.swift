import FlowRuntime

/// The programs a node compiled for the last table schema it saw, so a node compiles its row
/// formulas once per schema rather than once per pass. Shared by every evaluation of one
/// configured node (evaluations may run on any thread; the lock is held only to read or
/// replace the entry, never while compiling).
final class RowProgramCache: Sendable {
  private struct State {
    var schema: RowSchema?
    var programs: [RowProgram] = []
    /// How many times `compile` ran (for tests).
    var compilations = 0
  }

  private let state = Locked(State())

  /// How many times the cache compiled (a test hook).
  var compilationCount: Int { state.withLock { $0.compilations } }

  /// The programs for `schema`: the cached ones if the schema is the last one seen, else
  /// `compile(schema)`, which then replaces the entry.
  ///
  /// - Throws: what `compile` throws (nothing is cached then).
  func programs(
    for schema: RowSchema, compile: (RowSchema) throws(FormulaError) -> [RowProgram]
  ) throws(FormulaError) -> [RowProgram] {
    let cached = state.withLock { state -> [RowProgram]? in
      state.schema == schema ? state.programs : nil
    }
    if let cached { return cached }
    let programs = try compile(schema)
    state.withLock { state in
      state.schema = schema
      state.programs = programs
      state.compilations += 1
    }
    return programs
  }
}
