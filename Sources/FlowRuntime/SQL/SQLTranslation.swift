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
