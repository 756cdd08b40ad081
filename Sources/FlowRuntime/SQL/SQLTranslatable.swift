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

/// What a ``SQLTranslatable`` kind is given: the dialect, the node's params and its inputs.
public struct SQLTranslationRequest: Sendable {
  /// One input table: the relation to select from and its columns.
  public struct Input: Sendable {
    /// The relation's name, already quoted for the dialect.
    public var relation: String
    /// The column names (unquoted) and types (nil: unknown or all null).
    public var columns: [(name: String, type: ColumnType?)]

    public init(relation: String, columns: [(name: String, type: ColumnType?)]) {
      self.relation = relation
      self.columns = columns
    }
  }

  /// `duckdb`, `spark`, `trino` or `postgres`.
  public var dialect: String
  public var parameters: JSONObject
  /// The inputs, in the kind's input-port order (an unconnected input is absent).
  public var inputs: [Input]
  /// The row-number column's name, already quoted.
  public var rowColumn: String
  /// Quotes an identifier for the dialect.
  public var quote: @Sendable (String) -> String
  /// Writes a string literal for the dialect.
  public var literal: @Sendable (String) -> String

  public init(dialect: String, parameters: JSONObject, inputs: [Input], rowColumn: String,
              quote: @escaping @Sendable (String) -> String, literal: @escaping @Sendable (String) -> String) {
    self.dialect = dialect
    self.parameters = parameters
    self.inputs = inputs
    self.rowColumn = rowColumn
    self.quote = quote
    self.literal = literal
  }
}

/// What a ``SQLTranslatable`` kind gives: a `SELECT` and the columns it makes.
public struct SQLTranslation: Sendable {
  /// A `SELECT` giving ``SQLTranslationRequest/rowColumn`` first, then ``columns`` in order.
  public var select: String
  public var columns: [(name: String, type: ColumnType?)]

  public init(select: String, columns: [(name: String, type: ColumnType?)]) {
    self.select = select
    self.columns = columns
  }
}
