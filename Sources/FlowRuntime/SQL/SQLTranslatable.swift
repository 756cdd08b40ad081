import FlowGraph

/// A node kind that `flow export --sql` can translate: a custom table kind gives the `SELECT`
/// that computes its output from its inputs' relations (see `Documentation/CustomKinds.md`,
/// "Exporting a custom kind to SQL"). Kinds without it are export errors naming the node.
///
/// The compiler carries flow's row order in a row-number column (``SQLTranslationRequest/rowColumn``):
/// every input relation has it, and the `SELECT` must give it first, then the output columns
/// in order, so that ordering by it gives the node's rows in flow's order.
public protocol SQLTranslatable: NodeKind {
  /// The translation of one node of this kind.
  ///
  /// - Throws: any error; its description becomes the export error's reason.
  func sqlTranslation(_ request: SQLTranslationRequest) throws -> SQLTranslation
}
