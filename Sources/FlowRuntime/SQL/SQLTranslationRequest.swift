import FlowGraph

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

  public init(
    dialect: String, parameters: JSONObject, inputs: [Input], rowColumn: String,
    quote: @escaping @Sendable (String) -> String, literal: @escaping @Sendable (String) -> String
  ) {
    self.dialect = dialect
    self.parameters = parameters
    self.inputs = inputs
    self.rowColumn = rowColumn
    self.quote = quote
    self.literal = literal
  }
}
