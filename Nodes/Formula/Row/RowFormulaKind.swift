import FlowRuntime

/// A kind whose params hold row formulas, which may read scalar inputs by `@name`: what it
/// passes to `RowFormulaBinding.instantiate`, and which params `flow export --sql` writes the
/// constants feeding those `@name`s into.
package protocol RowFormulaKind: NodeKind {
  /// The params that hold row formulas (a string, a list of strings or a record of them).
  var rowFormulaParameters: [String] { get }
}
