import FlowGraph

/// A node kind whose node is a constant for `flow export --sql`: its value comes from its params
/// alone (no inputs, files or clock), so where it feeds a param or a row formula's `@name` the
/// compiler evaluates it as a run would and writes the value into the consumer as a SQL literal.
/// A node of such a kind is no relation of the script unless it is chosen as an output.
///
/// `number` and `text` adopt it; a custom kind may (see `Documentation/CustomKinds.md`,
/// "Exporting a custom kind to SQL"). A kind that does not is refused where it feeds a param.
public protocol SQLConstantKind: NodeKind {}
