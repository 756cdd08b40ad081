import FlowRuntime

extension NodeKindRegistry {
  /// The standard kinds of SPEC §5: the calculator (`number`, `add`, `subtract`, `multiply`,
  /// `divide`, `expression`), `group`, and the pipeline vocabulary (text, files, tables).
  public static var standard: NodeKindRegistry {
    NodeKindRegistry([
      NumberNode(), AddNode(), SubtractNode(), MultiplyNode(), DivideNode(), ExpressionNode(), GroupNode(),
      TextNode(), FormatNode(), ToNumberNode(),
      ReadTextNode(), ReadCSVNode(), ReadJSONNode(), WriteCSVNode(), WriteJSONNode(), WriteTextNode(),
      SelectNode(), SortNode(), GroupByNode(), JoinNode(), LimitNode(), RowCountNode(), ColumnNode(), ReduceNode(),
      FilterNode(), DeriveNode(),
    ])
  }
}
